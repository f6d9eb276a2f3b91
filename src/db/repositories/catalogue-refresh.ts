import { and, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import { DAY_MS } from "../../domain/instants";
import { inOneTransaction } from "../batch";
import type { Db } from "../client";
import { catalogueRefreshItems, catalogueRefreshRuns, listings } from "../schema";

export type RunTrigger = (typeof catalogueRefreshRuns.$inferSelect)["trigger"];
export type ItemOutcome = (typeof catalogueRefreshItems.$inferSelect)["outcome"];

/** A run as stored, with its listings counted by outcome. */
export interface RefreshRun {
  id: number;
  trigger: RunTrigger;
  sessions: Record<string, string>;
  skipped: Record<string, string>;
  queued: number;
  startedAt: Date;
  finishedAt: Date | null;
  counts: RunCounts;
  /** The failed listings, with why (at most FAILURES_SHOWN). */
  failures: { ticker: string; exchange: string | null; reason: string; attempts: number }[];
}

export interface RunCounts {
  /** Listings not yet done (queued or waiting for a retry). */
  pending: number;
  refreshed: number;
  unchanged: number;
  failed: number;
  barsWritten: number;
  providerRequests: number;
}

const FAILURES_SHOWN = 100;

/** A listing of a new run and the session it is refreshed to. */
export interface RunItem {
  listingId: number;
  session: string;
}

/** Lock space of starting a refresh run (pg_advisory_xact_lock's first key). */
const START_LOCK = 0x52_46_52_53;

/**
 * Starts a run with its listings queued, unless one is running: under a transaction lock, so that
 * of any number of concurrent starts exactly one creates a run (the partial unique index on the
 * unfinished run stands behind it) and no other start spends a run id; its items exist the moment
 * it does. One round trip. Answers the new run's id, or null.
 */
export async function insertRun(
  db: Db,
  run: { trigger: RunTrigger; sessions: Record<string, string>; skipped: Record<string, string>; at: Date },
  items: readonly RunItem[],
): Promise<number | null> {
  const at = run.at.toISOString();
  const rows = JSON.stringify(items.map((i) => ({ listing_id: i.listingId, session: i.session })));
  const [, inserted] = await inOneTransaction(db, [
    db.execute(sql`SELECT pg_advisory_xact_lock(${START_LOCK}, 0)`),
    db.execute(sql`
      WITH run AS (
        INSERT INTO ${catalogueRefreshRuns} (trigger, sessions, skipped, queued, started_at)
        SELECT ${run.trigger}, ${JSON.stringify(run.sessions)}::jsonb, ${JSON.stringify(run.skipped)}::jsonb,
               ${items.length}, ${at}
        WHERE NOT EXISTS (SELECT 1 FROM ${catalogueRefreshRuns} WHERE finished_at IS NULL)
        ON CONFLICT DO NOTHING
        RETURNING id
      ), items AS (
        INSERT INTO ${catalogueRefreshItems} (run_id, listing_id, outcome, session, updated_at)
        SELECT run.id, x.listing_id, 'queued', x.session, ${at}
        FROM run, jsonb_to_recordset(${rows}::jsonb) AS x(listing_id int, session text)
        RETURNING 1
      )
      SELECT id FROM run, (SELECT count(*) FROM items) AS written`),
  ]);
  return (inserted as { rows: { id: number }[] }).rows[0]?.id ?? null;
}

/** Each venue's latest session that a run of the last 30 days took it to (started or finished). */
export async function coveredSessions(db: Db, at: Date): Promise<Record<string, string>> {
  const since = new Date(at.getTime() - 30 * DAY_MS).toISOString();
  const result = await db.execute<{ venue: string; session: string }>(sql`
    SELECT s.key AS venue, max(s.value #>> '{}') AS session
    FROM ${catalogueRefreshRuns} r, jsonb_each(r.sessions) s
    WHERE r.started_at >= ${since}
    GROUP BY s.key`);
  return Object.fromEntries(result.rows.map((r) => [r.venue, r.session]));
}

/** The runs among `ids` that are closed (finished or abandoned): their listings' messages are dropped. */
export async function closedRuns(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: catalogueRefreshRuns.id })
    .from(catalogueRefreshRuns)
    .where(and(isNotNull(catalogueRefreshRuns.finishedAt), inArray(catalogueRefreshRuns.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** The unfinished run, if any. */
export async function runningRunId(db: Db): Promise<number | null> {
  const result = await db.execute<{ id: number }>(
    sql`SELECT id FROM ${catalogueRefreshRuns} WHERE finished_at IS NULL LIMIT 1`,
  );
  return result.rows[0]?.id ?? null;
}

/**
 * Closes a run whose listings will not all be done (never queued, or left behind past the run's
 * lifetime): what is still pending is failed with `reason`. Closes only unfinished runs started
 * before `startedBefore` (all of `runId`'s when given).
 */
export async function abandonRuns(
  db: Db,
  target: { runId: number } | { startedBefore: Date },
  reason: string,
  at: Date,
): Promise<number[]> {
  const which = "runId" in target ? sql`id = ${target.runId}` : sql`started_at < ${target.startedBefore.toISOString()}`;
  const result = await db.execute<{ id: number }>(sql`
    WITH closed AS (
      UPDATE ${catalogueRefreshRuns} SET finished_at = ${at.toISOString()}
      WHERE finished_at IS NULL AND ${which}
      RETURNING id
    ), failed AS (
      UPDATE ${catalogueRefreshItems} SET outcome = 'failed', reason = ${reason}, updated_at = ${at.toISOString()}
      WHERE run_id IN (SELECT id FROM closed) AND outcome = 'queued'
      RETURNING 1
    )
    SELECT id FROM closed, (SELECT count(*) FROM failed) AS n`);
  return result.rows.map((r) => r.id);
}

/** What one attempt at a listing found: its final outcome, or `queued` again with the reason it will be retried. */
export interface ItemResult {
  runId: number;
  listingId: number;
  outcome: ItemOutcome;
  reason: string | null;
  attempts: number;
  barsWritten: number;
  providerRequests: number;
  at: Date;
}

/**
 * Records an attempt at a listing, then closes the run when none is pending: one transaction in one
 * round trip. A listing already done is never changed again (a redelivered message finds it done),
 * so nothing is counted twice. The run's row is locked between the item's update and the count:
 * two listings finishing at once each count without the other's uncommitted update, so without
 * the lock neither would close the run; with it, the later one counts after the earlier one's
 * commit and closes it. Answers the run's counts after it and whether this attempt closed it.
 */
export async function recordItem(db: Db, r: ItemResult): Promise<{ counts: RunCounts; finishedNow: boolean }> {
  const at = r.at.toISOString();
  const [, , closing] = await inOneTransaction(db, [
    db.execute(sql`
      UPDATE ${catalogueRefreshItems}
      SET outcome = ${r.outcome}, reason = ${r.reason}, attempts = ${r.attempts},
          bars_written = bars_written + ${r.barsWritten}, provider_requests = provider_requests + ${r.providerRequests},
          updated_at = ${at}
      WHERE run_id = ${r.runId} AND listing_id = ${r.listingId} AND outcome = 'queued'`),
    db.execute(sql`SELECT id FROM ${catalogueRefreshRuns} WHERE id = ${r.runId} FOR UPDATE`),
    db.execute(sql`
      WITH counts AS (${countsOfRun(r.runId)}), closed AS (
        UPDATE ${catalogueRefreshRuns} SET finished_at = ${at}
        WHERE id = ${r.runId} AND finished_at IS NULL AND (SELECT pending FROM counts) = 0
        RETURNING id
      )
      SELECT counts.*, EXISTS (SELECT 1 FROM closed) AS finished_now FROM counts`),
  ]);
  const row = (closing as { rows: (CountRow & { finished_now: boolean })[] }).rows[0];
  return { counts: countsOf(row), finishedNow: row?.finished_now === true };
}

/** A run's listings counted by outcome, as one row (`CountRow`). */
const countsOfRun = (runId: number | SQL) => sql`
  SELECT
    count(*) FILTER (WHERE outcome = 'queued')::int AS pending,
    count(*) FILTER (WHERE outcome = 'refreshed')::int AS refreshed,
    count(*) FILTER (WHERE outcome = 'unchanged')::int AS unchanged,
    count(*) FILTER (WHERE outcome = 'failed')::int AS failed,
    coalesce(sum(bars_written), 0)::int AS bars_written,
    coalesce(sum(provider_requests), 0)::int AS provider_requests
  FROM ${catalogueRefreshItems} WHERE run_id = ${runId}`;

interface CountRow {
  pending: number;
  refreshed: number;
  unchanged: number;
  failed: number;
  bars_written: number | null;
  provider_requests: number | null;
}

const countsOf = (row: CountRow | undefined): RunCounts => ({
  pending: row?.pending ?? 0,
  refreshed: row?.refreshed ?? 0,
  unchanged: row?.unchanged ?? 0,
  failed: row?.failed ?? 0,
  barsWritten: row?.bars_written ?? 0,
  providerRequests: row?.provider_requests ?? 0,
});

type RunRow = {
  id: number;
  trigger: RunTrigger;
  sessions: Record<string, string>;
  skipped: Record<string, string>;
  queued: number;
  started_at: string | Date;
  finished_at: string | Date | null;
  counts: CountRow;
  failures: RefreshRun["failures"];
};

/** The latest runs (or one run), newest first, each with its counts and failures: one statement. */
export async function latestRuns(db: Db, limit: number, runId?: number): Promise<RefreshRun[]> {
  const only = runId === undefined ? sql`` : sql`WHERE id = ${runId}`;
  const result = await db.execute<RunRow>(sql`
    WITH runs AS (SELECT * FROM ${catalogueRefreshRuns} ${only} ORDER BY id DESC LIMIT ${limit})
    SELECT r.id, r.trigger, r.sessions, r.skipped, r.queued, r.started_at, r.finished_at,
      (SELECT row_to_json(c) FROM (${countsOfRun(sql`r.id`)}) c) AS counts,
      (SELECT coalesce(json_agg(json_build_object('ticker', f.ticker, 'exchange', f.exchange,
                'reason', coalesce(f.reason, ''), 'attempts', f.attempts) ORDER BY f.ticker), '[]'::json)
       FROM (SELECT l.ticker, l.exchange, i.reason, i.attempts FROM ${catalogueRefreshItems} i
             JOIN ${listings} l ON l.id = i.listing_id
             WHERE i.run_id = r.id AND i.outcome = 'failed' ORDER BY l.ticker LIMIT ${FAILURES_SHOWN}) f) AS failures
    FROM runs r ORDER BY r.id DESC`);
  return result.rows.map((r) => ({
    id: r.id,
    trigger: r.trigger,
    sessions: r.sessions,
    skipped: r.skipped,
    queued: r.queued,
    startedAt: new Date(r.started_at),
    finishedAt: r.finished_at === null ? null : new Date(r.finished_at),
    counts: countsOf(r.counts),
    failures: r.failures,
  }));
}
