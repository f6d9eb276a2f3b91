import { and, avg, count, desc, eq, gte, max, sql } from "drizzle-orm";
import type { CanaryCheck } from "../../domain/monitoring/canary-checks";
import { decimalOrNull } from "../../domain/numbers";
import type { Db } from "../client";
import { providerChecks } from "../schema";
import { storableText } from "../text";

/** One canary check as stored (the domain's CanaryCheck). */
export type NewCheck = CanaryCheck;

/** Stores the checks of a run in one statement. */
export async function saveChecks(db: Db, checks: readonly NewCheck[]): Promise<void> {
  if (checks.length === 0) return;
  await db.insert(providerChecks).values(
    checks.map((c) => ({
      providerName: c.provider,
      checkType: "canary" as const,
      ticker: c.ticker,
      field: c.field,
      success: c.passed,
      latencyMs: c.latencyMs,
      value: c.value === null ? null : String(c.value),
      expectedMin: c.expected ? String(c.expected[0]) : null,
      expectedMax: c.expected ? String(c.expected[1]) : null,
      error: c.error === null ? null : storableText(c.error, 500),
      checkedAt: c.at,
    })),
  );
}

const canary = eq(providerChecks.checkType, "canary");

/**
 * The checks' fetches (one per provider, instrument and run: a run stores all its rows at its start
 * instant), each with its latency, so that an average latency is one of fetches, not of fields.
 */
function fetchesSince(db: Db, since: Date, provider?: string) {
  return db
    .select({
      provider: providerChecks.providerName,
      at: providerChecks.checkedAt,
      latency: max(providerChecks.latencyMs).as("latency"),
    })
    .from(providerChecks)
    .where(
      and(
        canary,
        gte(providerChecks.checkedAt, since),
        provider ? eq(providerChecks.providerName, provider) : undefined,
      ),
    )
    .groupBy(providerChecks.providerName, providerChecks.ticker, providerChecks.checkedAt)
    .as("fetches");
}

export interface CheckAggregate {
  provider: string;
  checks: number;
  passed: number;
  /** Mean latency of the fetches, in milliseconds. */
  avgLatencyMs: number | null;
  lastCheck: Date | null;
}

/** Per provider: checks and passes since an instant, the fetches' mean latency, the latest check. */
export async function checkAggregates(db: Db, since: Date, provider?: string): Promise<CheckAggregate[]> {
  const scope = and(
    canary,
    gte(providerChecks.checkedAt, since),
    provider ? eq(providerChecks.providerName, provider) : undefined,
  );
  const fetches = fetchesSince(db, since, provider);
  const [counts, latencies] = await Promise.all([
    db
      .select({
        provider: providerChecks.providerName,
        checks: count(),
        passed: sql<number>`count(*) filter (where ${providerChecks.success})`.mapWith(Number),
        lastCheck: max(providerChecks.checkedAt),
      })
      .from(providerChecks)
      .where(scope)
      .groupBy(providerChecks.providerName)
      .orderBy(providerChecks.providerName),
    db
      .select({ provider: fetches.provider, latency: avg(fetches.latency) })
      .from(fetches)
      .groupBy(fetches.provider),
  ]);
  const latencyOf = new Map(latencies.map((l) => [l.provider, decimalOrNull(l.latency)]));
  return counts.map((c) => ({ ...c, avgLatencyMs: latencyOf.get(c.provider) ?? null }));
}

/** Per provider, its latest run: whether every check passed, and whether the provider answered at all (sent any value). */
export async function latestRuns(db: Db): Promise<Map<string, { at: Date; passed: boolean; answered: boolean }>> {
  const rows = await db
    .select({
      provider: providerChecks.providerName,
      at: providerChecks.checkedAt,
      passed: sql<boolean>`bool_and(${providerChecks.success})`,
      answered: sql<boolean>`bool_or(${providerChecks.value} is not null)`,
    })
    .from(providerChecks)
    .where(
      and(
        canary,
        sql`${providerChecks.checkedAt} = (select max(p2.checked_at) from provider_checks p2 where p2.check_type = 'canary' and p2.provider_name = ${providerChecks.providerName})`,
      ),
    )
    .groupBy(providerChecks.providerName, providerChecks.checkedAt);
  return new Map(rows.map((r) => [r.provider, { at: r.at, passed: r.passed, answered: r.answered }]));
}

export interface DailyChecks {
  date: string;
  checks: number;
  passed: number;
  avgLatencyMs: number | null;
}

/** One provider's checks by UTC day since an instant, oldest first. */
export async function dailyChecks(db: Db, provider: string, since: Date): Promise<DailyChecks[]> {
  const dayOf = sql<string>`to_char(${providerChecks.checkedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const fetches = fetchesSince(db, since, provider);
  const fetchDay = sql<string>`to_char(${fetches.at} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [counts, latencies] = await Promise.all([
    db
      .select({
        date: dayOf,
        checks: count(),
        passed: sql<number>`count(*) filter (where ${providerChecks.success})`.mapWith(Number),
      })
      .from(providerChecks)
      .where(and(canary, eq(providerChecks.providerName, provider), gte(providerChecks.checkedAt, since)))
      .groupBy(dayOf)
      .orderBy(dayOf),
    db
      .select({ date: fetchDay, latency: avg(fetches.latency) })
      .from(fetches)
      .groupBy(fetchDay),
  ]);
  const latencyOf = new Map(latencies.map((l) => [l.date, decimalOrNull(l.latency)]));
  return counts.map((c) => ({ ...c, avgLatencyMs: latencyOf.get(c.date) ?? null }));
}

export type CheckRow = typeof providerChecks.$inferSelect;

export interface CheckFilter {
  provider?: string;
  ticker?: string;
  since: Date;
  onlyFailed?: boolean;
  limit: number;
}

/** Stored canary checks, newest first. */
export async function listChecks(db: Db, f: CheckFilter): Promise<CheckRow[]> {
  return db
    .select()
    .from(providerChecks)
    .where(
      and(
        canary,
        gte(providerChecks.checkedAt, f.since),
        f.provider ? eq(providerChecks.providerName, f.provider) : undefined,
        f.ticker ? eq(providerChecks.ticker, f.ticker) : undefined,
        f.onlyFailed ? eq(providerChecks.success, false) : undefined,
      ),
    )
    .orderBy(desc(providerChecks.checkedAt), providerChecks.id)
    .limit(f.limit);
}
