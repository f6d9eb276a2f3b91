import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { assets, listings, pricesDaily } from "../schema";

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
