import { and, asc, desc, eq, gte, inArray, lt, lte, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Bar } from "../../domain/bars";
import { DAY_MS } from "../../domain/instants";
import type { Finding } from "../../domain/price-sanity";
import type { StoredPrecision } from "../../domain/provider-precision";
import { arrayLiteral, inOneTransaction } from "../batch";
import type { Db } from "../client";
import { adjustmentChecks, assets, listings, pricesDaily, pricesIntraday } from "../schema";
import {
  activeListingIds,
  activeListingsByIdQuery,
  activeListingsQuery,
  type ListingFilter,
  type ListingRow,
} from "./catalogue";
import { type FindingRow, findingsQuery } from "./price-findings";

/** Rows per INSERT: a ten-year history is one statement; a longer one a few, in the same transaction. */
const BATCH = 10_000;

/**
 * Upserts daily bars of a listing (`INSERT ... ON CONFLICT DO UPDATE`, all statements in one
 * transaction and one round trip), so a rerun over the same range changes no row and loses none.
 * Rows whose values are unchanged are not rewritten. Answers how many rows were inserted or changed.
 * The bars go as one array a column (`unnest`): seven parameters a statement rather than nine a
 * row, which Postgres parses and plans many times faster than a VALUES list of thousands of rows.
 */
export async function upsertDailyBars(
  db: Db,
  listingId: number,
  bars: readonly Bar[],
  dataSource: string,
): Promise<number> {
  const statements = [];
  for (let i = 0; i < bars.length; i += BATCH) {
    const chunk = bars.slice(i, i + BATCH);
    const column = (pick: (b: Bar) => number | string) => arrayLiteral(chunk.map(pick));
    statements.push(
      db.execute<{ date: string }>(sql`
        INSERT INTO ${pricesDaily} (listing_id, date, open, high, low, close, adj_close, volume, data_source)
        SELECT ${listingId}, b.date, b.open, b.high, b.low, b.close, b.adj_close, b.volume, ${dataSource}
        FROM unnest(${column((b) => b.date)}::date[], ${column((b) => b.open)}::numeric[],
                    ${column((b) => b.high)}::numeric[], ${column((b) => b.low)}::numeric[],
                    ${column((b) => b.close)}::numeric[], ${column((b) => b.adjClose)}::numeric[],
                    ${column((b) => b.volume)}::bigint[]) AS b(date, open, high, low, close, adj_close, volume)
        ON CONFLICT (listing_id, date) DO UPDATE SET
          open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
          adj_close = excluded.adj_close, volume = excluded.volume, data_source = excluded.data_source,
          updated_at = now()
        -- Only a real change rewrites a row: reingesting the same range is a no-op. A bar that
        -- another provider had stored is relabelled even when its values agree.
        WHERE (${pricesDaily}.open, ${pricesDaily}.high, ${pricesDaily}.low, ${pricesDaily}.close,
               ${pricesDaily}.adj_close, ${pricesDaily}.volume, ${pricesDaily}.data_source)
          IS DISTINCT FROM (excluded.open, excluded.high, excluded.low, excluded.close, excluded.adj_close,
                            excluded.volume, excluded.data_source)
        RETURNING date`),
    );
  }
  const written = (await inOneTransaction(db, statements)) as { rows: { date: string }[] }[];
  return written.reduce((n, r) => n + r.rows.length, 0);
}

/** The columns of a stored daily bar, as `toBar` reads them. */
export const barColumns = {
  date: pricesDaily.date,
  open: pricesDaily.open,
  high: pricesDaily.high,
  low: pricesDaily.low,
  close: pricesDaily.close,
  adjClose: pricesDaily.adjClose,
  volume: pricesDaily.volume,
};

/** Which stored bars a read takes: an inclusive date window; `lastBars` keeps the newest N of it. */
export interface BarWindow {
  from?: string | null;
  to?: string | null;
  lastBars?: number | null;
}

/** Stored daily bars of a listing, ascending, within an optional inclusive window; `lastBars` keeps the newest N. */
export async function readDailyBars(db: Db, listingId: number, window: BarWindow = {}): Promise<Bar[]> {
  return inOrder(window, await windowQuery(db, listingId, window)).map(toBar);
}

/** A listing's bars in a window, with their source: newest first with `lastBars` (see `inOrder`), else ascending. */
function windowQuery(db: Db, listingId: number, window: BarWindow) {
  const conditions = [eq(pricesDaily.listingId, listingId)];
  if (window.from) conditions.push(gte(pricesDaily.date, window.from));
  if (window.to) conditions.push(lte(pricesDaily.date, window.to));
  const base = db
    .select({ ...barColumns, source: pricesDaily.dataSource })
    .from(pricesDaily)
    .where(and(...conditions));
  return window.lastBars
    ? base.orderBy(desc(pricesDaily.date)).limit(window.lastBars)
    : base.orderBy(asc(pricesDaily.date));
}

/** The rows of `windowQuery` ascending. */
const inOrder = <T>(window: BarWindow, rows: T[]): T[] => (window.lastBars ? rows.reverse() : rows);

/** `readDailyBars`, whether any of the bars came from `source`, and the net's findings from the window's start (one round trip). */
export async function readDailyWindow(
  db: Db,
  listingId: number,
  window: BarWindow,
  source: string,
): Promise<Pick<ListingPrices, "bars" | "windowHasSource" | "findings" | "precision">> {
  const [read, found, checked] = await db.batch([
    windowQuery(db, listingId, window),
    findingsQuery(db, [listingId], window.from),
    precisionQuery(db, [listingId]),
  ]);
  const rows = inOrder(window, read);
  return {
    bars: rows.map(toBar),
    windowHasSource: rows.some((r) => r.source === source),
    findings: found.map(toFinding),
    precision: checked[0]?.precision ?? "unchecked",
  };
}

const toFinding = (r: FindingRow): Finding => ({ date: r.date, kind: r.kind, evidence: r.evidence });

type StoredBar = {
  date: string;
  open: string | null;
  high: string | null;
  low: string | null;
  close: string;
  adjClose: string;
  volume: number;
};

/** A stored row as a bar: numeric strings read as float64; a missing open/high/low reads as the close. */
export function toBar(r: StoredBar): Bar {
  const close = Number(r.close);
  return {
    date: r.date,
    open: r.open === null ? close : Number(r.open),
    high: r.high === null ? close : Number(r.high),
    low: r.low === null ? close : Number(r.low),
    close,
    adjClose: Number(r.adjClose),
    volume: r.volume,
  };
}

/** First and last stored date of a listing and how many bars it has. */
export interface StoredSpan {
  first: string;
  last: string;
  count: number;
}

/** What one read of a listing's stored prices sees. */
export interface ListingPrices {
  /** The window's bars, ascending. */
  bars: Bar[];
  /** Whether any of the window's bars came from the `source` asked about. */
  windowHasSource: boolean;
  /** All its stored bars' span (null: none stored). */
  stored: StoredSpan | null;
  /** The span of its bars from the `source` asked about (null: none). */
  sourced: { from: string; to: string } | null;
  /** What the price sanity net found from the window's start on (splits whatever their date). */
  findings: Finding[];
  /** The precision its checked bars are stored at; `unchecked` before its first check. */
  precision: StoredPrecision | "unchecked";
}

const NO_PRICES: ListingPrices = {
  bars: [],
  windowHasSource: false,
  stored: null,
  sourced: null,
  findings: [],
  precision: "unchecked",
};

/** The stored precision of listings (their price checks' marker), one statement for a batch. */
const precisionQuery = (db: Db, ids: SQLWrapper | number[]) =>
  db
    .select({ listingId: adjustmentChecks.listingId, precision: adjustmentChecks.precision })
    .from(adjustmentChecks)
    .where(inArray(adjustmentChecks.listingId, ids));

/**
 * The active listings that `filter` names and, for each, its stored prices as `ListingPrices`
 * (`source`: the provider whose bars are asked about), in one round trip (one batch; each statement
 * reads committed rows as it starts, as the separate reads before it did): what /eod needs of the
 * database before it answers.
 */
export async function readTickerPrices(
  db: Db,
  filter: ListingFilter,
  window: BarWindow,
  source: string,
): Promise<{ listings: ListingRow[]; prices: Map<number, ListingPrices> }> {
  const candidates = activeListingIds(db, filter);
  const conditions = [inArray(pricesDaily.listingId, candidates)];
  if (window.from) conditions.push(gte(pricesDaily.date, window.from));
  if (window.to) conditions.push(lte(pricesDaily.date, window.to));
  const columns = { listingId: pricesDaily.listingId, ...barColumns, source: pricesDaily.dataSource };
  const inWindow = db
    .select(columns)
    .from(pricesDaily)
    .where(and(...conditions));
  // The newest N of each listing: ranked only when asked (`1d`, `5d`).
  const newestFirst = sql<number>`row_number() over (partition by ${pricesDaily.listingId} order by ${pricesDaily.date} desc)`;
  const ranked = db
    .select({ ...columns, rank: newestFirst.as("rank") })
    .from(pricesDaily)
    .where(and(...conditions))
    .as("ranked");
  const [rows, barRows, spans, found, checked] = await db.batch([
    activeListingsQuery(db, filter),
    window.lastBars ? db.select().from(ranked).where(lte(ranked.rank, window.lastBars)) : inWindow,
    spansQuery(db, inArray(pricesDaily.listingId, candidates), source),
    findingsQuery(db, activeListingIds(db, filter), window.from),
    precisionQuery(db, activeListingIds(db, filter)),
  ]);
  const prices = new Map<number, ListingPrices>();
  for (const l of rows) prices.set(l.id, { ...NO_PRICES, bars: [], findings: [] });
  for (const r of found) prices.get(r.listingId)?.findings.push(toFinding(r));
  for (const r of checked) {
    const p = prices.get(r.listingId);
    if (p) p.precision = r.precision;
  }
  for (const r of spans) {
    const p = prices.get(r.listingId);
    if (p) Object.assign(p, spansOf(r));
  }
  barRows.sort((a, b) => a.listingId - b.listingId || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  for (const r of barRows) {
    const p = prices.get(r.listingId);
    if (!p) continue;
    p.bars.push(toBar(r));
    if (r.source === source) p.windowHasSource = true;
  }
  return { listings: rows, prices };
}

/** Each listing's stored span and the span of its bars from `source` (an aggregate per listing). */
function spansQuery(db: Db, where: SQL, source: string) {
  return db
    .select({
      listingId: pricesDaily.listingId,
      first: sql<string>`min(${pricesDaily.date})`,
      last: sql<string>`max(${pricesDaily.date})`,
      count: sql<number>`count(*)::int`,
      sourcedFrom: sql<string | null>`min(${pricesDaily.date}) filter (where ${pricesDaily.dataSource} = ${source})`,
      sourcedTo: sql<string | null>`max(${pricesDaily.date}) filter (where ${pricesDaily.dataSource} = ${source})`,
    })
    .from(pricesDaily)
    .where(where)
    .groupBy(pricesDaily.listingId);
}

type SpanRow = Awaited<ReturnType<typeof spansQuery>>[number];

function spansOf(r: SpanRow): Pick<ListingPrices, "stored" | "sourced"> {
  return {
    stored: { first: r.first, last: r.last, count: Number(r.count) },
    sourced: r.sourcedFrom && r.sourcedTo ? { from: r.sourcedFrom, to: r.sourcedTo } : null,
  };
}

/**
 * The active listings among `ids`, each with its stored spans (as `listingSpans` reads them), in
 * one round trip: what a refresh of those listings needs before it asks any provider.
 */
export async function readListingsWithSpans(
  db: Db,
  ids: readonly number[],
  source: string,
): Promise<{ listing: ListingRow; spans: Pick<ListingPrices, "stored" | "sourced"> }[]> {
  if (ids.length === 0) return [];
  const [rows, spans] = await db.batch([
    activeListingsByIdQuery(db, ids),
    spansQuery(db, inArray(pricesDaily.listingId, [...ids]), source),
  ]);
  const byListing = new Map(spans.map((r) => [r.listingId, spansOf(r)]));
  return rows.map((listing) => ({ listing, spans: byListing.get(listing.id) ?? { stored: null, sourced: null } }));
}

/** A listing's stored span and the span of its bars from `source`, in one query. */
export async function listingSpans(
  db: Db,
  listingId: number,
  source: string,
): Promise<Pick<ListingPrices, "stored" | "sourced">> {
  const [row] = await spansQuery(db, eq(pricesDaily.listingId, listingId), source);
  return row ? spansOf(row) : { stored: null, sourced: null };
}

/** The stored prices of one listing, as `readTickerPrices` reads them for each. */
export function pricesOf(read: { prices: Map<number, ListingPrices> }, listingId: number): ListingPrices {
  return read.prices.get(listingId) ?? NO_PRICES;
}

/** A 1-minute candle as the realtime stream stored it. */
export interface IntradayBar {
  minute: Date;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** The newest `limit` 1-minute candles of a listing within an optional window, ascending. */
export async function readIntradayBars(
  db: Db,
  listingId: number,
  window: { from?: string | null; to?: string | null; limit: number },
): Promise<IntradayBar[]> {
  const conditions = [eq(pricesIntraday.listingId, listingId)];
  if (window.from) conditions.push(gte(pricesIntraday.minute, new Date(`${window.from}T00:00:00Z`)));
  if (window.to) conditions.push(lt(pricesIntraday.minute, new Date(Date.parse(`${window.to}T00:00:00Z`) + DAY_MS)));
  const rows = await db
    .select({
      minute: pricesIntraday.minute,
      open: pricesIntraday.open,
      high: pricesIntraday.high,
      low: pricesIntraday.low,
      close: pricesIntraday.close,
      volume: pricesIntraday.volume,
    })
    .from(pricesIntraday)
    .where(and(...conditions))
    .orderBy(desc(pricesIntraday.minute))
    .limit(window.limit);
  return rows.reverse().map((r) => ({
    minute: r.minute,
    open: Number(r.open),
    high: Number(r.high),
    low: Number(r.low),
    close: Number(r.close),
    volume: r.volume,
  }));
}

/**
 * The newest `perListing` daily bars of each listing, in one query: a LATERAL read of each
 * listing's primary-key index backwards (about 4x faster than ranking every stored row with a
 * window function), each listing's bars folded into one JSON array so the driver parses 80 JSON
 * documents instead of 40,000 rows (half the time again). What the indicator snapshots are
 * computed from. Ascending per listing.
 */
export async function readLastBarsOfListings(
  db: Db,
  listingIds: readonly number[],
  perListing: number,
): Promise<Map<number, Bar[]>> {
  const out = new Map<number, Bar[]>();
  // At most BARS_PER_READ bars an answer (a few MB): Neon's HTTP answers have a size limit, so a
  // long read goes as several at once.
  const perRead = Math.max(1, Math.floor(BARS_PER_READ / Math.max(1, perListing)));
  const chunks: number[][] = [];
  for (let i = 0; i < listingIds.length; i += perRead) chunks.push(listingIds.slice(i, i + perRead));
  const results = await Promise.all(chunks.map((chunk) => lastBarsRead(db, chunk, perListing)));
  for (const r of results.flatMap((x) => x.rows)) {
    if (!r.bars) continue;
    out.set(
      r.listing_id,
      r.bars.map(([date, open, high, low, close, adjClose, volume]) => ({
        date,
        open: open ?? close,
        high: high ?? close,
        low: low ?? close,
        close,
        adjClose,
        volume,
      })),
    );
  }
  return out;
}

const BARS_PER_READ = 50_000;

function lastBarsRead(db: Db, listingIds: readonly number[], perListing: number) {
  const ids = sql`ARRAY[${sql.join(
    listingIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::int[]`;
  return db.execute<{
    listing_id: number;
    bars: [string, number | null, number | null, number | null, number, number, number][] | null;
  }>(sql`
    SELECT l.id AS listing_id,
      (SELECT json_agg(json_build_array(p.date, p.open, p.high, p.low, p.close, p.adj_close, p.volume) ORDER BY p.date)
       FROM (SELECT date, open, high, low, close, adj_close, volume FROM ${pricesDaily}
             WHERE ${pricesDaily.listingId} = l.id ORDER BY ${pricesDaily.date} DESC LIMIT ${perListing}) AS p) AS bars
    FROM unnest(${ids}) AS l(id)`);
}

/** The newest stored daily close of a listing on or before `until`, exactly as stored (a numeric string), or null. */
export async function lastClose(
  db: Db,
  listingId: number,
  until: string,
): Promise<{ date: string; close: string } | null> {
  const [row] = await db
    .select({ date: pricesDaily.date, close: pricesDaily.close })
    .from(pricesDaily)
    .where(and(eq(pricesDaily.listingId, listingId), lte(pricesDaily.date, until)))
    .orderBy(desc(pricesDaily.date))
    .limit(1);
  return row ?? null;
}

/** One active listing of a venue and its stored bar of a day (null fields: no bar stored for it). */
export type VenueDayRow = {
  listing_id: number;
  ticker: string;
  isin: string;
  name: string;
  currency: string;
  open: string | null;
  high: string | null;
  low: string | null;
  close: string | null;
  adj_close: string | null;
  volume: number | null;
  data_source: string | null;
};

/**
 * A page of a venue's listings, by id after `afterId`, each with its stored bar of `date` (the
 * primary key's index answers each): the active ones, and those no longer active that have a bar
 * that day (a past day shows what traded then). What `/eod/bulk/{exchange}` writes, page by page.
 */
export async function readVenueDayPage(
  db: Db,
  page: { exchange: string; date: string; afterId: number; limit: number },
): Promise<VenueDayRow[]> {
  const rows = await db.execute<VenueDayRow>(sql`
    SELECT l.id AS listing_id, l.ticker, a.isin, l.name, l.currency,
      p.open::text AS open, p.high::text AS high, p.low::text AS low, p.close::text AS close,
      p.adj_close::text AS adj_close, p.volume, p.data_source
    FROM ${listings} l
    JOIN ${assets} a ON a.id = l.asset_id
    LEFT JOIN ${pricesDaily} p ON p.listing_id = l.id AND p.date = ${page.date}
    WHERE l.exchange = ${page.exchange} AND (l.is_active OR p.listing_id IS NOT NULL) AND l.id > ${page.afterId}
    ORDER BY l.id
    LIMIT ${page.limit}`);
  return rows.rows.map((r) => ({ ...r, volume: r.volume === null ? null : Number(r.volume) }));
}
