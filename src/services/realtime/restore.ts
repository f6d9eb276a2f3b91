import { activeSubscriptions } from "../../db/repositories/realtime";
import { buildDeps } from "../../deps";

/**
 * The cron's job: every active stored subscription (catalogue tickers only are stored) streams
 * again. Starting a stream that runs is a no-op, so this is safe to repeat. Answers the tickers.
 */
export async function restoreSubscriptions(env: Env): Promise<string[]> {
  const deps = buildDeps(env, { deadlineMs: Number.POSITIVE_INFINITY });
  const streams = deps.streams;
  if (!streams) return [];
  try {
    const tickers = await activeSubscriptions(deps.db.db);
    const results = await Promise.allSettled(tickers.map((t) => streams.start(t)));
    results.forEach((r, i) => {
      if (r.status === "rejected") console.warn("restore failed", tickers[i], String(r.reason));
    });
    return tickers;
  } finally {
    await deps.db.close();
  }
}
