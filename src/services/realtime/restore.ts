import { activeSubscriptions } from "../../db/repositories/realtime";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";

/** What the restore cron did last, as GET /realtime/status reports it. */
export interface RestoreRun {
  at: string;
  restored: number;
  failed: number;
}

/** Kept a day: a status that finds none says the cron has not run since. */
const RESTORE_RUN_TTL = 86_400;

/**
 * The cron's job: every active stored subscription (catalogue tickers only are stored) streams
 * again. Starting a stream that runs is a no-op, so this is safe to repeat. Answers the tickers,
 * and leaves what it did in the cache for GET /realtime/status.
 */
export async function restoreSubscriptions(deps: Context): Promise<string[]> {
  const streams = deps.streams;
  if (!streams) return [];
  const tickers = await activeSubscriptions(deps.db);
  const results = await Promise.allSettled(tickers.map((t) => streams.start(t)));
  // Started without waiting: a refusal comes later, and its stream ends the subscription.
  results.forEach((r, i) => {
    if (r.status === "rejected") console.warn("restore failed", tickers[i], String(r.reason));
  });
  const failed = results.filter((r) => r.status === "rejected").length;
  const run: RestoreRun = { at: deps.clock.now().toISOString(), restored: tickers.length - failed, failed };
  await deps.cache.set(cacheKeys.restoreRun(), run, RESTORE_RUN_TTL);
  return tickers;
}
