import { DbHandle } from "../../db/client";
import { activeSubscriptions } from "../../db/repositories/realtime";
import type { RealtimeEnv } from "../../durable-objects/env";
import { loadConfig } from "../../env";
import { streamDirectory } from "./directory";

/**
 * The cron's job: every active stored subscription (catalogue tickers only are stored) streams
 * again. Starting a stream that runs is a no-op, so this is safe to repeat. Answers the tickers.
 */
export async function restoreSubscriptions(env: RealtimeEnv): Promise<string[]> {
  const streams = streamDirectory(env);
  if (!streams) return [];
  const db = new DbHandle(loadConfig(env));
  try {
    const tickers = await activeSubscriptions(db.db);
    const results = await Promise.allSettled(tickers.map((t) => streams.start(t)));
    results.forEach((r, i) => {
      if (r.status === "rejected") console.warn("restore failed", tickers[i], String(r.reason));
    });
    return tickers;
  } finally {
    await db.close();
  }
}
