import { and, desc, eq, gte, lt } from "drizzle-orm";
import { DAY_MS } from "../../domain/instants";
import type { Db } from "../client";
import { pricesIntraday } from "../schema";

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
