import { and, eq, lt, sql } from "drizzle-orm";
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

/** Whether a share of a run is computed already (a redelivered message then does nothing). */
export async function shareDone(db: Db, runId: number, share: number): Promise<boolean> {
  const [row] = await db
    .select({ share: screenRunShares.share })
    .from(screenRunShares)
    .where(and(eq(screenRunShares.runId, runId), eq(screenRunShares.share, share)));
  return row !== undefined;
}

/**
 * Claims the resend of a stalled run: one not finished whose last progress (its last share, else
 * its start) and last resend are both older than `stalledMs`. One request wins the claim, whoever asks at once.
 */
export async function claimResend(db: Db, runId: number, now: Date, stalledMs: number): Promise<boolean> {
  const before = new Date(now.getTime() - stalledMs);
  const result = await db.execute<{ id: number }>(sql`
    UPDATE ${screenRuns} r SET resent_at = ${now}
    WHERE r.id = ${runId} AND (r.resent_at IS NULL OR r.resent_at < ${before})
      AND (SELECT coalesce(max(s.finished_at), r.started_at) FROM ${screenRunShares} s WHERE s.run_id = r.id) < ${before}
      AND (SELECT count(*) FROM ${screenRunShares} s WHERE s.run_id = r.id) < r.shares
    RETURNING r.id`);
  return result.rows.length > 0;
}

/** Forgets the runs of days before `day` (their shares and values go with them): a run answers its own day only. */
export async function pruneRuns(db: Db, day: string): Promise<number> {
  const gone = await db.delete(screenRuns).where(lt(screenRuns.day, day)).returning({ id: screenRuns.id });
  return gone.length;
}

/** A run's row by id; null when there is none. */
export async function runById(db: Db, id: number): Promise<RunRow | null> {
  const [row] = await db.select().from(screenRuns).where(eq(screenRuns.id, id));
  return row ?? null;
}

/** Values per INSERT: 3 parameters a row. */
const BATCH = 5000;

/**
 * Starts the run of a key unless `perDay` runs started on its day already, or finds the one that
 * exists: two requests at once start one run, and both answer it. `run` is null when the day's
 * runs are spent (the count and the insert are one statement; requests for new keys in the same
 * instant may pass it by a few).
 */
export async function startRun(
  db: Db,
  r: Omit<RunRow, "id" | "resentAt">,
  perDay: number,
): Promise<{ run: RunRow | null; created: boolean }> {
  const inserted = await db.execute<{ id: number }>(sql`
    INSERT INTO ${screenRuns} (key, indicator, params, resolution, day, shares, requested_by, started_at)
    SELECT ${r.key}, ${r.indicator}, ${r.params}, ${r.resolution}, ${r.day}, ${r.shares}, ${r.requestedBy}, ${r.startedAt}
    WHERE (SELECT count(*) FROM ${screenRuns} WHERE day = ${r.day}) < ${perDay}
    ON CONFLICT (key) DO NOTHING
    RETURNING id`);
  const [found] = await db.select().from(screenRuns).where(eq(screenRuns.key, r.key));
  return { run: found ?? null, created: inserted.rows.length > 0 };
}

/** A run's state by its key or id; null when there is none. */
export async function readRun(db: Db, by: { key: string } | { id: number }): Promise<RunState | null> {
  const [row] = await db
    .select({
      run: screenRuns,
      sharesDone: sql<number>`count(${screenRunShares.share})::int`,
      instruments: sql<number>`coalesce(sum(${screenRunShares.instruments}), 0)::int`,
      skipped: sql<number>`coalesce(sum(${screenRunShares.skipped}), 0)::int`,
      finishedAt: sql<
        string | null
      >`CASE WHEN count(${screenRunShares.share}) >= ${screenRuns.shares} THEN max(${screenRunShares.finishedAt}) END`,
    })
    .from(screenRuns)
    .leftJoin(screenRunShares, eq(screenRunShares.runId, screenRuns.id))
    .where("key" in by ? eq(screenRuns.key, by.key) : eq(screenRuns.id, by.id))
    .groupBy(screenRuns.id);
  if (!row) return null;
  return {
    ...row.run,
    sharesDone: row.sharesDone,
    instruments: row.instruments,
    skipped: row.skipped,
    finishedAt: row.finishedAt === null ? null : new Date(row.finishedAt),
  };
}

/**
 * Stores a computed share in one transaction: its values, then the share itself. A share computed
 * again writes nothing new (both keep the first write, values once per instrument), so no share or
 * instrument is counted twice.
 */
export async function saveShare(
  db: Db,
  s: {
    runId: number;
    share: number;
    values: readonly { assetId: number; listingId: number; value: number; asOf: string }[];
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
      -- Only what is still its instrument's preferred listing: a removed one leaves the answer.
      SELECT v.listing_id, v.value, v.as_of FROM ${screenRunValues} v
      JOIN listings l ON l.id = v.listing_id AND l.preferred
      WHERE v.run_id = ${q.runId} AND v.value ${test} ${q.value}
    ), edge AS (
      SELECT value FROM hit ORDER BY value ${order} OFFSET ${q.limit - 1} LIMIT 1
    )
    SELECT (SELECT count(*) FROM hit)::int AS total,
      (SELECT json_agg(json_build_object('ticker', m.ticker, 'name', m.name, 'isin', m.isin, 'exchange', m.exchange,
                                         'value', m.value, 'asOf', m.as_of, 'close',
                                         (SELECT d.close::text FROM prices_daily d
                                          WHERE d.listing_id = m.listing_id AND d.date = m.as_of))
                       ORDER BY m.value ${order}, m.ticker COLLATE "C", m.isin COLLATE "C")
       FROM (SELECT h.*, x.* FROM hit h
             CROSS JOIN LATERAL (SELECT l.ticker, l.name, l.exchange, a.isin FROM listings l
                                 JOIN assets a ON a.id = l.asset_id WHERE l.id = h.listing_id OFFSET 0) x
             WHERE NOT EXISTS (SELECT 1 FROM edge) OR h.value ${low ? sql`<=` : sql`>=`} (SELECT value FROM edge)
             ORDER BY h.value ${order}, x.ticker COLLATE "C", x.isin COLLATE "C" LIMIT ${q.limit}) m) AS matches`);
  const row = result.rows[0];
  return { total: row?.total ?? 0, matches: row?.matches ?? [] };
}
