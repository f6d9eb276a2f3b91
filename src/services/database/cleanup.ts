import { cacheKeys } from "../../cache";
import { applyRetention, type RetentionCounts } from "../../db/repositories/retention";
import type { Deps } from "../../deps";

/** Monitoring logs (provider checks, validations, resolved alerts) are kept this long (spec Limits). */
const LOG_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

export interface CleanupResult {
  dryRun: boolean;
  daysToKeep: number;
  pricesBefore: string;
  logsBefore: string;
  usageLogsBefore: string;
  counts: RetentionCounts;
}

/**
 * POST /database/cleanup: prices older than `daysToKeep` days, monitoring logs older than 30 days
 * and usage logs past USAGE_LOG_RETENTION_DAYS. A dry run counts exactly what a real run would delete.
 */
export async function cleanupDatabase({
  ctx,
  input,
}: {
  ctx: Deps;
  input: { daysToKeep: number; dryRun: boolean };
}): Promise<CleanupResult> {
  const now = ctx.clock.now().getTime();
  const pricesBefore = new Date(now - input.daysToKeep * DAY_MS).toISOString().slice(0, 10);
  const logsBefore = new Date(now - LOG_RETENTION_DAYS * DAY_MS);
  const usageLogsBefore = new Date(now - ctx.config.USAGE_LOG_RETENTION_DAYS * DAY_MS);
  const counts = await applyRetention(ctx.db.db, { pricesBefore, logsBefore, usageLogsBefore }, input.dryRun);
  if (!input.dryRun && counts.prices_daily > 0) {
    // Cached answers may hold the deleted bars.
    await Promise.all([ctx.cache.deletePattern(cacheKeys.eodAll()), ctx.cache.deletePattern(cacheKeys.technicalAll())]);
  }
  return {
    dryRun: input.dryRun,
    daysToKeep: input.daysToKeep,
    pricesBefore,
    logsBefore: logsBefore.toISOString(),
    usageLogsBefore: usageLogsBefore.toISOString(),
    counts,
  };
}
