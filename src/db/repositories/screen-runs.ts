import { eq, sql } from "drizzle-orm";
import { inOneTransaction } from "../batch";
import type { Db } from "../client";
import { screenRunShares, screenRuns, screenRunValues } from "../schema";
import type { ScreenMatch } from "./indicator-snapshots";

export type RunRow = typeof screenRuns.$inferSelect;

/** A run with its progress: the shares computed, their instruments, and when the last one finished. */
export interface RunState extends RunRow {
  sharesDone: number;
  instruments: number;
  skipped: number;
  /** Set once every share is computed. */
  finishedAt: Date | null;
}

/** The shares of a run already computed. */
export async function doneShares(db: Db, runId: number): Promise<Set<number>> {
  const rows = await db
    .select({ share: screenRunShares.share })
    .from(screenRunShares)
    .where(eq(screenRunShares.runId, runId));
  return new Set(rows.map((r) => r.share));
}

/** A run's row by id; null when there is none. */
export async function runById(db: Db, id: number): Promise<RunRow | null> {
  const [row] = await db.select().from(screenRuns).where(eq(screenRuns.id, id));
  return row ?? null;
}

/** Values per INSERT: 3 parameters a row. */
const BATCH = 5000;

/**
 * Starts the run of a key, or finds the one that exists: two requests at once start one run, and
 * both answer it.
 */
export async function startRun(db: Db, r: Omit<RunRow, "id">): Promise<{ run: RunRow; created: boolean }> {
  const [inserted] = await db.insert(screenRuns).values(r).onConflictDoNothing({ target: screenRuns.key }).returning();
  if (inserted) return { run: inserted, created: true };
  const [found] = await db.select().from(screenRuns).where(eq(screenRuns.key, r.key));
  if (!found) throw new Error(`screen run ${r.key} was neither inserted nor found`);
  return { run: found, created: false };
}

/** Runs started on a day (their keys end with it). */
export async function runsStartedOn(db: Db, day: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(screenRuns).where(eq(screenRuns.day, day));
  return row?.n ?? 0;
}

/** A run's state by its key or id; null when there is none. */
export async function readRun(db: Db, by: { key: string } | { id: number }): Promise<RunState | null> {
  const result = await db.execute<{
    id: number;
    sharesDone: number;
    instruments: number;
    skipped: number;
    finishedAt: string | null;
  }>(sql`
    SELECT r.id, count(s.share)::int AS "sharesDone", coalesce(sum(s.instruments), 0)::int AS instruments,
           coalesce(sum(s.skipped), 0)::int AS skipped,
           CASE WHEN count(s.share) >= r.shares THEN max(s.finished_at) END AS "finishedAt"
    FROM ${screenRuns} r LEFT JOIN ${screenRunShares} s ON s.run_id = r.id
    WHERE ${"key" in by ? sql`r.key = ${by.key}` : sql`r.id = ${by.id}`}
    GROUP BY r.id`);
  const progress = result.rows[0];
  if (!progress) return null;
  const [run] = await db.select().from(screenRuns).where(eq(screenRuns.id, progress.id));
  if (!run) return null;
  return {
    ...run,
    sharesDone: progress.sharesDone,
    instruments: progress.instruments,
    skipped: progress.skipped,
    finishedAt: progress.finishedAt === null ? null : new Date(progress.finishedAt),
  };
}

/**
 * Stores a computed share in one transaction: its values, then the share itself. A redelivered
 * message writes nothing new (both keep the first write), so no share is counted twice.
 */
export async function saveShare(
  db: Db,
  s: {
    runId: number;
    share: number;
    values: readonly { listingId: number; value: number; asOf: string }[];
    instruments: number;
    skipped: number;
    at: Date;
  },
): Promise<void> {
  const statements = [];
  for (let i = 0; i < s.values.length; i += BATCH)
    statements.push(
      db
        .insert(screenRunValues)
        .values(s.values.slice(i, i + BATCH).map((v) => ({ ...v, runId: s.runId })))
        .onConflictDoNothing(),
    );
  statements.push(
    db
      .insert(screenRunShares)
      .values({ runId: s.runId, share: s.share, instruments: s.instruments, skipped: s.skipped, finishedAt: s.at })
      .onConflictDoNothing(),
  );
  await inOneTransaction(db, statements);
}

const COMPARISONS = { lt: sql`<`, gt: sql`>`, lte: sql`<=`, gte: sql`>=` } as const;

/**
 * A finished run's matches of `operator value`: the count, and the first `limit`, most extreme
 * first, then by ticker and ISIN (as every screen orders them), with each one's close.
 */
export async function screenRunMatches(
  db: Db,
  q: { runId: number; operator: keyof typeof COMPARISONS; value: number; limit: number },
): Promise<{ total: number; matches: ScreenMatch[] }> {
  const test = COMPARISONS[q.operator];
  const low = q.operator.startsWith("l");
  const order = low ? sql`ASC` : sql`DESC`;
  const result = await db.execute<{ total: number; matches: ScreenMatch[] | null }>(sql`
    WITH hit AS MATERIALIZED (
      SELECT v.listing_id, v.value, v.as_of FROM ${screenRunValues} v
      WHERE v.run_id = ${q.runId} AND v.value ${test} ${q.value}
    ), edge AS (
      SELECT value FROM hit ORDER BY value ${order} OFFSET ${q.limit - 1} LIMIT 1
    )
    SELECT (SELECT count(*) FROM hit)::int AS total,
      (SELECT json_agg(json_build_object('ticker', m.ticker, 'name', m.name, 'isin', m.isin, 'exchange', m.exchange,
                                         'value', m.value, 'asOf', m.as_of, 'close',
                                         (SELECT d.close::text FROM prices_daily d
                                          WHERE d.listing_id = m.listing_id AND d.date = m.as_of))
                       ORDER BY m.value ${order}, m.ticker COLLATE "C", m.isin)
       FROM (SELECT h.*, x.* FROM hit h
             CROSS JOIN LATERAL (SELECT l.ticker, l.name, l.exchange, a.isin FROM listings l
                                 JOIN assets a ON a.id = l.asset_id WHERE l.id = h.listing_id OFFSET 0) x
             WHERE NOT EXISTS (SELECT 1 FROM edge) OR h.value ${low ? sql`<=` : sql`>=`} (SELECT value FROM edge)
             ORDER BY h.value ${order}, x.ticker COLLATE "C", x.isin LIMIT ${q.limit}) m) AS matches`);
  const row = result.rows[0];
  return { total: row?.total ?? 0, matches: row?.matches ?? [] };
}
