import { type SQL, sql } from "drizzle-orm";
import type { PriceField } from "../../domain/indicators/spec";
import type { Db } from "../client";
import { preferredListingsSql } from "./catalogue";

export interface ScreenBarsQuery {
  /** The newest daily bars of each instrument to read. */
  bars: number;
  /** The fields the indicator reads, and the dates when bars are aggregated into weeks or months. */
  fields: readonly (PriceField | "date")[];
  /** Only these listings (a screen's candidates after its other conditions); every instrument without it. */
  only?: readonly number[];
}

/** One instrument of the catalogue (its preferred listing) and its bars, oldest first, as columns. */
export interface InstrumentBars {
  /** The preferred listing's id, and its instrument's. */
  listingId: number;
  assetId: number;
  ticker: string;
  name: string;
  isin: string;
  exchange: string | null;
  columns: Partial<Record<PriceField | "date", (number | string)[]>>;
}

// A missing open, high or low reads as the close (as `readDailyBars` reads it). Prices go as
// float8, the nearest double to the stored decimal (what Number() of its text gives), in fewer bytes.
const COLUMN: Record<PriceField | "date", SQL> = {
  date: sql`b.date`,
  open: sql`coalesce(b.open, b.close)::float8`,
  high: sql`coalesce(b.high, b.close)::float8`,
  low: sql`coalesce(b.low, b.close)::float8`,
  close: sql`b.close::float8`,
  volume: sql`b.volume`,
};

/**
 * Values one answer carries at most (about 2 MB): Neon sends a query's answer over HTTP in one
 * piece, up to 10 MB, so a long read (the stored history of a recursive indicator over thousands
 * of instruments, years of daily bars for weekly or monthly screens) goes as several statements
 * sent at once, each over a fixed share of the instruments (asset id modulo their number). Workers
 * run six subrequests at a time: up to six shares cost one round trip's wait. Ten years of four
 * fields over 10,000 instruments are 400 shares; MAX_SHARES keeps a read within the 1,000
 * subrequests an invocation may make.
 */
const VALUES_PER_ANSWER = 250_000;
const MAX_SHARES = 512;

/**
 * The catalogue's size as the last read found it (kept by the isolate). A new isolate's first read
 * assumes a large catalogue (more, smaller shares: slower, but never an answer past Neon's limit);
 * each later read sizes its shares by what the last one found.
 */
let instrumentsSeen = 10_000;

/**
 * Every catalogue instrument's preferred listing and only the bars and fields its screen needs, in
 * one statement (or a few sent together for a long read): no second round trip for the bars.
 */
export async function readScreenBars(db: Db, q: ScreenBarsQuery): Promise<InstrumentBars[]> {
  if (q.only?.length === 0) return [];
  const values = (q.only?.length ?? instrumentsSeen) * q.bars * q.fields.length;
  const shares = Math.min(MAX_SHARES, Math.max(1, Math.ceil(values / VALUES_PER_ANSWER)));
  const reads = Array.from({ length: shares }, (_, share) => readShare(db, q, shares, share));
  const rows = (await Promise.all(reads)).flat();
  if (!q.only) instrumentsSeen = Math.max(1, rows.length);
  return rows;
}

/** The catalogue's instruments, each once (its preferred listing): what a screen covers. */
export async function countInstruments(db: Db): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM listings WHERE preferred`);
  return result.rows[0]?.n ?? 0;
}

/** One share of the instruments (asset id modulo `shares`) with their bars: what a queued screen's message reads. */
export async function readShare(db: Db, q: ScreenBarsQuery, shares: number, share: number): Promise<InstrumentBars[]> {
  const columns = sql.join(
    q.fields.map((f) => sql`${f}::text, json_agg(${COLUMN[f]} ORDER BY b.date)`),
    sql`, `,
  );
  const result = await db.execute<{
    id: number;
    asset_id: number;
    ticker: string;
    name: string;
    isin: string;
    exchange: string | null;
    columns: InstrumentBars["columns"] | null;
  }>(
    sql`
    SELECT p.id, p.asset_id, p.ticker, p.name, p.isin, p.exchange,
      (SELECT json_build_object(${columns})
       FROM (SELECT d.date, d.open, d.high, d.low, d.close, d.volume FROM prices_daily d
             WHERE d.listing_id = p.id ORDER BY d.date DESC LIMIT ${q.bars}) b
       HAVING count(*) > 0) AS columns
    FROM (${preferredListingsSql({ index: share, of: shares })}) p
    ${q.only ? sql`WHERE p.id = ANY(${`{${q.only.join(",")}}`}::int[])` : sql``}`,
  );
  return result.rows.map((r) => ({
    listingId: r.id,
    assetId: r.asset_id,
    ticker: r.ticker,
    name: r.name,
    isin: r.isin,
    exchange: r.exchange,
    columns: r.columns ?? {},
  }));
}
