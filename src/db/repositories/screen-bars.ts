import { type SQL, sql } from "drizzle-orm";
import type { PriceField } from "../../domain/indicators/catalogue";
import type { Db } from "../client";
import { preferredListingsSql } from "./catalogue";

export interface ScreenBarsQuery {
  /** The newest daily bars of each instrument to read. */
  bars: number;
  /** The fields the indicator reads, and the dates when bars are aggregated into weeks or months. */
  fields: readonly (PriceField | "date")[];
}

/** One instrument of the catalogue (its preferred listing) and its bars, oldest first, as columns. */
export interface ScreenRow {
  ticker: string;
  name: string;
  isin: string;
  columns: Partial<Record<PriceField | "date", (number | string)[]>>;
}

// A missing open, high or low reads as the close (as `readDailyBars` reads it).
const COLUMN: Record<PriceField | "date", SQL> = {
  date: sql`b.date`,
  open: sql`coalesce(b.open, b.close)`,
  high: sql`coalesce(b.high, b.close)`,
  low: sql`coalesce(b.low, b.close)`,
  close: sql`b.close`,
  volume: sql`b.volume`,
};

/**
 * Values an answer of the screen's read carries per instrument before the read is split: Neon
 * sends a query's answer over HTTP in one piece, so a long read (500 bars of four fields, years
 * of daily bars for weekly or monthly screens) goes as several statements sent at once (one round
 * trip's wait), each over a fixed share of the instruments (asset id modulo their number).
 */
const VALUES_PER_SHARE = 500;
const MAX_SHARES = 16;

/**
 * Every catalogue instrument's preferred listing and only the bars and fields its screen needs, in
 * one statement (or a few sent together for a long reach): no second round trip for the bars.
 */
export async function readScreenBars(db: Db, q: ScreenBarsQuery): Promise<ScreenRow[]> {
  const shares = Math.min(MAX_SHARES, Math.max(1, Math.ceil((q.bars * q.fields.length) / VALUES_PER_SHARE)));
  const reads = Array.from({ length: shares }, (_, share) => readShare(db, q, shares, share));
  return (await Promise.all(reads)).flat();
}

async function readShare(db: Db, q: ScreenBarsQuery, shares: number, share: number): Promise<ScreenRow[]> {
  const columns = sql.join(
    q.fields.map((f) => sql`${f}::text, json_agg(${COLUMN[f]} ORDER BY b.date)`),
    sql`, `,
  );
  const result = await db.execute<{ ticker: string; name: string; isin: string; columns: ScreenRow["columns"] | null }>(
    sql`
    SELECT p.ticker, p.name, p.isin,
      (SELECT json_build_object(${columns})
       FROM (SELECT d.date, d.open, d.high, d.low, d.close, d.volume FROM prices_daily d
             WHERE d.listing_id = p.id ORDER BY d.date DESC LIMIT ${q.bars}) b
       HAVING count(*) > 0) AS columns
    FROM (${preferredListingsSql}) p
    WHERE p.asset_id % ${shares} = ${share}`,
  );
  return result.rows.map((r) => ({ ticker: r.ticker, name: r.name, isin: r.isin, columns: r.columns ?? {} }));
}
