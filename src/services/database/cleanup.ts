import { listingsWithSnapshotsFrom } from "../../db/repositories/indicator-snapshots";
import { applyRetention, type RetentionCounts } from "../../db/repositories/retention";
import { DAY_MS, isoDay } from "../../domain/instants";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { refreshSnapshots } from "../technical/snapshots";

/** Monitoring logs (provider checks, validations, resolved alerts) are kept this long (spec Limits). */
export const LOG_RETENTION_DAYS = 30;

export interface CleanupResult {
  dryRun: boolean;
  daysToKeep: number;
  pricesBefore: string;
  logsBefore: string;
  usageLogsBefore: string;
  counts: RetentionCounts;
}

/** The cut-off instants of the monitoring logs (30 days) and of the usage logs (USAGE_LOG_RETENTION_DAYS). */
function logCutoffs(ctx: Context) {
  const now = ctx.clock.now().getTime();
  return {
    logsBefore: new Date(now - LOG_RETENTION_DAYS * DAY_MS),
    usageLogsBefore: new Date(now - ctx.config.USAGE_LOG_RETENTION_DAYS * DAY_MS),
  };
}

/** The daily job: monitoring logs older than 30 days and usage logs past their retention, prices untouched. */
export function applyLogRetention(ctx: Context): Promise<RetentionCounts> {
  return applyRetention(ctx.db, { pricesBefore: null, ...logCutoffs(ctx) }, false);
}

/**
 * POST /database/cleanup: prices older than `daysToKeep` days, monitoring logs older than 30 days
 * and usage logs past USAGE_LOG_RETENTION_DAYS. A dry run counts exactly what a real run would delete.
 */
export async function cleanupDatabase({
  ctx,
  input,
}: {
  ctx: Context;
  input: { daysToKeep: number; dryRun: boolean };
}): Promise<CleanupResult> {
  const pricesBefore = isoDay(new Date(ctx.clock.now().getTime() - input.daysToKeep * DAY_MS));
  const { logsBefore, usageLogsBefore } = logCutoffs(ctx);
  const counts = await applyRetention(ctx.db, { pricesBefore, logsBefore, usageLogsBefore }, input.dryRun);
  if (!input.dryRun && counts.prices_daily > 0) {
    // The screener's snapshots computed over deleted bars are computed again from what is left;
    // cached answers may hold the deleted bars.
    await refreshSnapshots(ctx, await listingsWithSnapshotsFrom(ctx.db, pricesBefore));
    await Promise.all(
      [cacheKeys.eodAll(), cacheKeys.technicalAll(), cacheKeys.screenerAll()].map((p) => ctx.cache.deletePattern(p)),
    );
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
