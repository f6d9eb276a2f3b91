import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { AnonymousCount, UsageEntry } from "../../domain/usage";
import type { Db } from "../client";
import { usageAnonymous, usageLogs } from "../schema";

export type NewUsageLog = typeof usageLogs.$inferInsert;

/**
 * Rows per INSERT: a whole consumer batch (10 messages of at most 100 entries) in one statement,
 * 8 parameters a row, well under Postgres's 65,535.
 */
const BATCH = 1000;

const rowOf = (e: UsageEntry): NewUsageLog => ({
  entryId: e.id,
  method: e.method,
  route: e.route,
  ticker: e.ticker,
  keyKind: e.keyKind,
  keyId: e.keyId ?? null,
  status: e.status,
  latencyMs: e.latencyMs,
  createdAt: e.createdAt,
});

/**
 * Inserts usage entries, many per statement; an entry whose id is already stored is skipped, so a
 * redelivered batch writes nothing twice. Answers how many rows were new.
 */
export async function insertUsageLogs(db: Db, entries: readonly UsageEntry[]): Promise<number> {
  const rows = entries.map(rowOf);
  let written = 0;
  for (let i = 0; i < rows.length; i += BATCH) {
    const res = await db
      .insert(usageLogs)
      .values(rows.slice(i, i + BATCH))
      .onConflictDoNothing({ target: usageLogs.entryId })
      .returning({ id: usageLogs.id });
    written += res.length;
  }
  return written;
}

/** Inserts the counts of keyless requests; a count whose id is already stored is skipped. Answers how many were new. */
export async function insertAnonymousCounts(db: Db, counts: readonly AnonymousCount[]): Promise<number> {
  let written = 0;
  for (let i = 0; i < counts.length; i += BATCH) {
    const res = await db
      .insert(usageAnonymous)
      .values(counts.slice(i, i + BATCH))
      .onConflictDoNothing()
      .returning({ batch: usageAnonymous.batch });
    written += res.length;
  }
  return written;
}

/** One route family's requests of a key over a span: counts and answer times (ms). */
export interface FamilyUsage {
  family: string;
  requests: number;
  errors: number;
  serverErrors: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
}

/**
 * A key's requests in [from, to), by route family (the first segment of the route template: /eod,
 * /technical, /workspace …), busiest first; one statement over the (key_id, created_at) index.
 */
export async function usageByFamily(db: Db, keyId: string, from: Date, to: Date): Promise<FamilyUsage[]> {
  const family = sql<string>`'/' || split_part(${usageLogs.route}, '/', 2)`;
  const rows = await db
    .select({
      family,
      requests: sql<number>`count(*)::int`,
      errors: sql<number>`(count(*) filter (where ${usageLogs.status} >= 400))::int`,
      serverErrors: sql<number>`(count(*) filter (where ${usageLogs.status} >= 500))::int`,
      meanMs: sql<number>`round(avg(${usageLogs.latencyMs}))::int`,
      p50Ms: sql<number>`round(percentile_cont(0.5) within group (order by ${usageLogs.latencyMs}))::int`,
      p95Ms: sql<number>`round(percentile_cont(0.95) within group (order by ${usageLogs.latencyMs}))::int`,
    })
    .from(usageLogs)
    .where(and(eq(usageLogs.keyId, keyId), gte(usageLogs.createdAt, from), lt(usageLogs.createdAt, to)))
    .groupBy(family)
    .orderBy(sql`count(*) desc`, family);
  return rows;
}
