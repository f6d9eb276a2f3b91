import { and, count, isNotNull, lt, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { changedRows, inOneTransaction } from "../batch";
import type { Db } from "../client";
import {
  alerts,
  intradayBars,
  intradayCoverage,
  pricesDaily,
  pricesIntraday,
  providerChecks,
  usageAnonymous,
  usageLogs,
  validationResults,
} from "../schema";

/** Cut-off points of one cleanup: prices before a date, logs before two instants. */
export interface RetentionCutoffs {
  /** Daily bars dated before this (YYYY-MM-DD) and candles before its midnight UTC go; null: prices are kept (the daily job). */
  pricesBefore: string | null;
  /** Provider checks, validation results and resolved alerts older than this go. */
  logsBefore: Date;
  /** Usage-log rows and keyless-request counts older than this go (USAGE_LOG_RETENTION_DAYS). */
  usageLogsBefore: Date;
}

export type RetentionCounts = Record<
  "prices_daily" | "prices_intraday" | "provider_checks" | "validation_results" | "alerts" | "usage_logs",
  number
>;

/** What a cleanup deletes and under which count (null: bookkeeping that goes with what it describes, not counted). */
type Target = [keyof RetentionCounts | null, PgTable, SQL | undefined];

/** The one list of what a cleanup deletes: a dry run counts these very predicates, a real run deletes them. */
function targets(c: RetentionCutoffs): Target[] {
  const midnight = c.pricesBefore ? new Date(`${c.pricesBefore}T00:00:00Z`) : null;
  // Intraday bars of the coarser intervals count as intraday prices; the record of which sessions
  // are stored whole goes with them, so a session deleted is fetched again if asked for.
  const prices: Target[] =
    c.pricesBefore && midnight
      ? [
          ["prices_daily", pricesDaily, lt(pricesDaily.date, c.pricesBefore)],
          ["prices_intraday", pricesIntraday, lt(pricesIntraday.minute, midnight)],
          ["prices_intraday", intradayBars, lt(intradayBars.start, midnight)],
          [null, intradayCoverage, lt(intradayCoverage.day, c.pricesBefore)],
        ]
      : [];
  return [
    ...prices,
    ["provider_checks", providerChecks, lt(providerChecks.checkedAt, c.logsBefore)],
    ["validation_results", validationResults, lt(validationResults.validatedAt, c.logsBefore)],
    ["alerts", alerts, and(isNotNull(alerts.resolvedAt), lt(alerts.resolvedAt, c.logsBefore))],
    ["usage_logs", usageLogs, lt(usageLogs.createdAt, c.usageLogsBefore)],
    // The keyless requests' counts are usage logs too, in their counted form.
    ["usage_logs", usageAnonymous, lt(usageAnonymous.windowStart, c.usageLogsBefore)],
  ];
}

/** Counts (dry run) or deletes (real run) what is past its retention, in one transaction (one round trip). */
export async function applyRetention(db: Db, cutoffs: RetentionCutoffs, dryRun: boolean): Promise<RetentionCounts> {
  const list = targets(cutoffs);
  const results = await inOneTransaction(
    db,
    list.map(([, table, where]) =>
      dryRun ? db.select({ n: count() }).from(table).where(where) : db.delete(table).where(where),
    ),
  );
  const out = { prices_daily: 0, prices_intraday: 0 } as RetentionCounts;
  list.forEach(([name], i) => {
    const result = results[i];
    if (name) out[name] = (out[name] ?? 0) + (dryRun ? ((result as { n: number }[])[0]?.n ?? 0) : changedRows(result));
  });
  return out;
}
