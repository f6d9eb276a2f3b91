import { asc, count, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { assets, listings, pricesDaily, pricesIntraday, usageAnonymous, usageLogs } from "../schema";

/** Stored daily prices of one listing. */
export interface StoredSeries {
  listingId: number;
  ticker: string;
  exchange: string | null;
  currency: string;
  isin: string;
  firstDate: string;
  lastDate: string;
  bars: number;
  /** Provider of the newest bar. */
  lastSource: string | null;
}

const seriesColumns = {
  listingId: listings.id,
  ticker: listings.ticker,
  exchange: listings.exchange,
  currency: listings.currency,
  isin: assets.isin,
  firstDate: sql<string>`min(${pricesDaily.date})`,
  lastDate: sql<string>`max(${pricesDaily.date})`,
  bars: sql<number>`count(*)::int`,
  lastSource: sql<string | null>`(array_agg(${pricesDaily.dataSource} order by ${pricesDaily.date} desc))[1]`,
};

/** Every listing with stored prices (optionally of one ticker), by ticker then listing. */
export async function storedSeries(db: Db, ticker?: string): Promise<StoredSeries[]> {
  return db
    .select(seriesColumns)
    .from(pricesDaily)
    .innerJoin(listings, eq(listings.id, pricesDaily.listingId))
    .innerJoin(assets, eq(assets.id, listings.assetId))
    .where(ticker ? eq(listings.ticker, ticker) : undefined)
    .groupBy(listings.id, assets.isin)
    .orderBy(asc(listings.ticker), asc(listings.id));
}

export interface DatabaseTotals {
  dailyBars: number;
  listingsWithPrices: number;
  tickersWithPrices: number;
  firstDate: string | null;
  lastDate: string | null;
  intradayCandles: number;
  assets: number;
  listings: number;
  requests24h: number;
}

/** `since`: the start of the "last 24 hours" on the service's clock (usage rows carry that clock's time). */
export async function databaseTotals(db: Db, since: Date): Promise<DatabaseTotals> {
  const [daily] = await db
    .select({
      bars: sql<number>`count(*)::int`,
      listings: sql<number>`count(distinct ${pricesDaily.listingId})::int`,
      first: sql<string | null>`min(${pricesDaily.date})`,
      last: sql<string | null>`max(${pricesDaily.date})`,
    })
    .from(pricesDaily);
  const [tickers] = await db
    .select({ n: sql<number>`count(distinct ${listings.ticker})::int` })
    .from(listings)
    .where(sql`exists (select 1 from ${pricesDaily} where ${pricesDaily.listingId} = ${listings.id})`);
  const [intraday] = await db.select({ n: count() }).from(pricesIntraday);
  const [assetCount] = await db.select({ n: count() }).from(assets);
  const [listingCount] = await db.select({ n: count() }).from(listings);
  const [requests] = await db.select({ n: count() }).from(usageLogs).where(gte(usageLogs.createdAt, since));
  // Keyless requests are counted, not logged: their counts since then add to the rows.
  const [keyless] = await db
    .select({ n: sql<number>`coalesce(sum(${usageAnonymous.requests}), 0)::int` })
    .from(usageAnonymous)
    .where(gte(usageAnonymous.windowStart, since));
  return {
    dailyBars: daily?.bars ?? 0,
    listingsWithPrices: daily?.listings ?? 0,
    tickersWithPrices: tickers?.n ?? 0,
    firstDate: daily?.first ?? null,
    lastDate: daily?.last ?? null,
    intradayCandles: intraday?.n ?? 0,
    assets: assetCount?.n ?? 0,
    listings: listingCount?.n ?? 0,
    requests24h: (requests?.n ?? 0) + (keyless?.n ?? 0),
  };
}

/** API requests logged for a ticker: in all (within the usage-log retention) and since `since` (the last 24 hours). */
export async function requestsForTicker(
  db: Db,
  ticker: string,
  since: Date,
): Promise<{ total: number; last24h: number }> {
  const [row] = await db
    .select({ total: count(), last24h: sql<number>`count(*) filter (where ${usageLogs.createdAt} >= ${since})::int` })
    .from(usageLogs)
    .where(eq(usageLogs.ticker, ticker));
  return { total: row?.total ?? 0, last24h: row?.last24h ?? 0 };
}
