import { eq, inArray, lt, sql } from "drizzle-orm";
import type { ScreenRow } from "../../domain/indicators/screen-row";
import { SNAPSHOT_FORMULA, SNAPSHOT_SET, type Snapshot } from "../../domain/indicators/snapshots";
import { inOneTransaction } from "../batch";
import type { Db } from "../client";
import { indicatorSnapshots, screenRows } from "../schema";

/** Rows per INSERT: 9 parameters a row stays far below Postgres's 65,535-parameter limit. */
const BATCH = 2000;

/** A SQL array literal of floats: each as its shortest exact text, so the database reads the same double. */
const floatArray = (values: readonly (number | null)[]) =>
  `{${values.map((v) => (v === null || !Number.isFinite(v) ? "NULL" : String(v))).join(",")}}`;

/**
 * The screen rows of listings, their instrument and currency read from the listing in the same
 * statement; a row computed from older bars never replaces a newer one.
 */
function screenRowsUpsert(db: Db, rows: readonly (ScreenRow & { listingId: number })[], at: Date) {
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.listingId}::int, ${r.formula}::smallint, ${r.windowBars}::int, ${r.asOf}::date, ${r.close}::float8, ${floatArray(r.values)}::float8[])`,
    ),
    sql`, `,
  );
  return db.execute(sql`
    INSERT INTO ${screenRows} (listing_id, asset_id, currency, formula, window_bars, as_of, close, values, updated_at)
    SELECT l.id, l.asset_id, l.currency, v.formula, v.window_bars, v.as_of, v.close, v.vals, ${at}
    FROM (VALUES ${values}) AS v(listing_id, formula, window_bars, as_of, close, vals)
    JOIN listings l ON l.id = v.listing_id
    ON CONFLICT (listing_id) DO UPDATE SET
      asset_id = excluded.asset_id, currency = excluded.currency, formula = excluded.formula,
      window_bars = excluded.window_bars, as_of = excluded.as_of, close = excluded.close,
      values = excluded.values, updated_at = excluded.updated_at
    WHERE excluded.as_of >= ${screenRows.asOf}`);
}

/**
 * Writes the snapshots of listings and their screen rows (a retry rewrites the same rows): one
 * transaction, one round trip.
 */
export async function upsertSnapshots(
  db: Db,
  rows: readonly (Snapshot & { listingId: number })[],
  screen: readonly (ScreenRow & { listingId: number })[],
  at: Date,
): Promise<void> {
  const statements = [];
  for (let i = 0; i < rows.length; i += BATCH)
    statements.push(
      db
        .insert(indicatorSnapshots)
        .values(rows.slice(i, i + BATCH).map((r) => ({ ...r, updatedAt: at })))
        .onConflictDoUpdate({
          target: [indicatorSnapshots.listingId, indicatorSnapshots.indicator, indicatorSnapshots.params],
          set: {
            windowBars: sql`excluded.window_bars`,
            formula: sql`excluded.formula`,
            value: sql`excluded.value`,
            computable: sql`excluded.computable`,
            asOf: sql`excluded.as_of`,
            windowFrom: sql`excluded.window_from`,
            updatedAt: sql`excluded.updated_at`,
            // `preferred` is left to the marking (migration 0022): the insert trigger read the
            // listing's mark without waiting for a marking in flight, which is the newer one.
          },
          // A write computed from older bars (a refresh beside an ingestion) never replaces a newer one.
          setWhere: sql`excluded.as_of >= ${indicatorSnapshots.asOf}`,
        }),
    );
  for (let i = 0; i < screen.length; i += BATCH) statements.push(screenRowsUpsert(db, screen.slice(i, i + BATCH), at));
  await inOneTransaction(db, statements);
}

/** Forgets the snapshots and screen rows of listings (their bars are gone or changed under them). */
export async function deleteSnapshots(db: Db, listingIds: readonly number[]): Promise<void> {
  if (listingIds.length === 0) return;
  await inOneTransaction(db, [
    db.delete(indicatorSnapshots).where(inArray(indicatorSnapshots.listingId, [...listingIds])),
    db.delete(screenRows).where(inArray(screenRows.listingId, [...listingIds])),
  ]);
}

/** The listings whose snapshots were computed over bars dated before `date` (a cleanup deleted them since). */
export async function listingsWithSnapshotsFrom(db: Db, before: string): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: indicatorSnapshots.listingId })
    .from(indicatorSnapshots)
    .where(lt(indicatorSnapshots.windowFrom, before));
  return rows.map((r) => r.id);
}

/**
 * Each listing's snapshots as a refresh checks them: how many, the oldest as-of date and whether
 * every one was computed over `windowBars` with the current arithmetic, its screen row too (as of
 * the same bar); a query to run or batch.
 */
export function snapshotStateQuery(db: Db, listingIds: readonly number[], windowBars: number) {
  return db
    .select({
      listingId: indicatorSnapshots.listingId,
      rows: sql<number>`count(*)::int`,
      asOf: sql<string>`min(${indicatorSnapshots.asOf})`,
      current: sql<boolean>`bool_and(${indicatorSnapshots.windowBars} = ${windowBars} AND ${indicatorSnapshots.formula} = ${SNAPSHOT_FORMULA}
        AND ${screenRows.formula} IS NOT DISTINCT FROM ${SNAPSHOT_FORMULA} AND ${screenRows.asOf} IS NOT DISTINCT FROM ${indicatorSnapshots.asOf}
        AND array_length(${screenRows.values}, 1) IS NOT DISTINCT FROM ${SNAPSHOT_SET.length})`,
    })
    .from(indicatorSnapshots)
    .leftJoin(screenRows, eq(screenRows.listingId, indicatorSnapshots.listingId))
    .where(inArray(indicatorSnapshots.listingId, [...listingIds]))
    .groupBy(indicatorSnapshots.listingId);
}

export type SnapshotState = Awaited<ReturnType<typeof snapshotStateQuery>>[number];

const COMPARISONS = { lt: sql`<`, gt: sql`>`, lte: sql`<=`, gte: sql`>=` } as const;

export interface SnapshotScreen {
  indicator: string;
  params: string;
  windowBars: number;
  operator: keyof typeof COMPARISONS;
  value: number;
  limit: number;
}

export interface SnapshotScreenResult {
  /** Instruments of the catalogue (each once: its preferred active listing). */
  candidates: number;
  /** Those with a computable snapshot. */
  screened: number;
  /** Those meeting the condition, and the first `limit` of them, most extreme first. */
  total: number;
  matches: ScreenMatch[];
}

/** A screened instrument: its value, the last stored bar it is computed to, and that bar's close. */
export interface ScreenMatch {
  ticker: string;
  name: string;
  isin: string;
  exchange: string | null;
  value: number;
  asOf: string;
  /** The close as stored (a decimal string). */
  close: string | null;
}

/**
 * The screen over snapshots in one statement, each instrument once (its preferred listing's
 * snapshot, marked in the snapshot row itself so that one index answers): the counts, and the
 * first `limit` matches, most extreme first (lowest for lt/lte, highest for gt/gte). The matches
 * are read up to the `limit`-th value in index order, then ordered with their tie-breaks.
 */
export async function screenSnapshots(db: Db, q: SnapshotScreen): Promise<SnapshotScreenResult> {
  const test = COMPARISONS[q.operator];
  const low = q.operator.startsWith("l");
  const order = low ? sql`ASC` : sql`DESC`;
  const within = low ? sql`<=` : sql`>=`;
  const result = await db.execute<{
    candidates: number;
    screened: number;
    total: number;
    matches: SnapshotScreenResult["matches"] | null;
  }>(sql`
    WITH s AS NOT MATERIALIZED (
      SELECT listing_id, value, computable, as_of FROM ${indicatorSnapshots}
      WHERE preferred AND indicator = ${q.indicator} AND params = ${q.params} AND window_bars = ${q.windowBars}
    ), edge AS (
      SELECT value FROM s WHERE s.value ${test} ${q.value} ORDER BY s.value ${order} OFFSET ${q.limit - 1} LIMIT 1
    )
    SELECT
      (SELECT count(*) FROM listings WHERE preferred)::int AS candidates,
      (SELECT count(*) FROM s WHERE s.computable)::int AS screened,
      (SELECT count(*) FROM s WHERE s.value ${test} ${q.value})::int AS total,
      (SELECT json_agg(json_build_object('ticker', m.ticker, 'name', m.name, 'isin', m.isin, 'exchange', m.exchange,
                                         'value', m.value, 'asOf', m.as_of, 'close',
                                         (SELECT d.close::text FROM prices_daily d
                                          WHERE d.listing_id = m.listing_id AND d.date = m.as_of))
                       ORDER BY m.value ${order}, m.ticker COLLATE "C", m.isin)
       FROM (SELECT l.ticker, l.name, l.exchange, a.isin, s.value, s.as_of, s.listing_id
             FROM s JOIN listings l ON l.id = s.listing_id JOIN assets a ON a.id = l.asset_id
             WHERE s.value ${test} ${q.value}
               AND (NOT EXISTS (SELECT 1 FROM edge) OR s.value ${within} (SELECT value FROM edge))
             ORDER BY s.value ${order}, l.ticker COLLATE "C", a.isin LIMIT ${q.limit}) m) AS matches`);
  const row = result.rows[0];
  return {
    candidates: row?.candidates ?? 0,
    screened: row?.screened ?? 0,
    total: row?.total ?? 0,
    matches: row?.matches ?? [],
  };
}
