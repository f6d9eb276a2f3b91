import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { assets, listings } from "../schema";

export type AssetRow = typeof assets.$inferSelect;

/** A listing joined with its instrument's ISIN (the wire Listing carries it). */
export interface ListingRow {
  id: number;
  assetId: number;
  ticker: string;
  exchange: string | null;
  currency: string;
  isin: string;
  name: string;
  source: string;
  isPrimary: boolean;
  isActive: boolean;
  delayedSymbol: string | null;
  delayedSymbolCheckedAt: Date | null;
}

const listingColumns = {
  id: listings.id,
  assetId: listings.assetId,
  ticker: listings.ticker,
  exchange: listings.exchange,
  currency: listings.currency,
  isin: assets.isin,
  name: listings.name,
  source: listings.source,
  isPrimary: listings.isPrimary,
  isActive: listings.isActive,
  delayedSymbol: listings.delayedSymbol,
  delayedSymbolCheckedAt: listings.delayedSymbolCheckedAt,
};

/**
 * Each catalogue instrument once, as its preferred active listing (id, asset_id, ticker, name,
 * isin): the /eod choice (`compareListings`), which the database keeps in `listings.preferred`
 * (migration 0022). A subquery for screens over the catalogue; `share` keeps the instruments whose
 * id is `share.index` modulo `share.of`.
 */
export function preferredListingsSql(share?: { index: number; of: number }): SQL {
  const only = share && share.of > 1 ? sql`AND l.asset_id % ${share.of} = ${share.index}` : sql``;
  return sql`
  SELECT l.id, l.asset_id, l.ticker, l.name, l.exchange, a.isin
  FROM listings l JOIN assets a ON a.id = l.asset_id
  WHERE l.preferred ${only}`;
}

/** An instrument and all its listings, in one round trip. */
export async function findAssetByIsin(
  db: Db,
  isin: string,
): Promise<{ asset: AssetRow; listings: ListingRow[] } | null> {
  const [found, rows] = await db.batch([
    db.select().from(assets).where(eq(assets.isin, isin)).limit(1),
    db
      .select(listingColumns)
      .from(listings)
      .innerJoin(assets, eq(assets.id, listings.assetId))
      .where(eq(assets.isin, isin))
      .orderBy(asc(listings.id)),
  ]);
  const asset = found[0];
  return asset ? { asset, listings: rows } : null;
}

export async function findAssetById(db: Db, id: number): Promise<AssetRow | null> {
  const [asset] = await db.select().from(assets).where(eq(assets.id, id)).limit(1);
  return asset ?? null;
}

export interface ListingFilter {
  ticker?: string;
  isin?: string;
  exchange?: string;
  currency?: string;
}

function activeListingConditions(filter: ListingFilter): SQL[] {
  const conditions = [eq(listings.isActive, true)];
  if (filter.ticker) conditions.push(eq(listings.ticker, filter.ticker.toUpperCase()));
  if (filter.isin) conditions.push(eq(assets.isin, filter.isin.toUpperCase()));
  if (filter.exchange) conditions.push(sql`upper(${listings.exchange}) = ${filter.exchange.toUpperCase()}`);
  if (filter.currency) conditions.push(sql`upper(${listings.currency}) = ${filter.currency.toUpperCase()}`);
  return conditions;
}

/** Active listings matching every given filter (case-insensitive on codes), as a query to run or batch. */
export function activeListingsQuery(db: Db, filter: ListingFilter) {
  return db
    .select(listingColumns)
    .from(listings)
    .innerJoin(assets, eq(assets.id, listings.assetId))
    .where(and(...activeListingConditions(filter)))
    .orderBy(asc(listings.id));
}

/** The active listings among `ids`, as a query to run or batch. */
export function activeListingsByIdQuery(db: Db, ids: readonly number[]) {
  return db
    .select(listingColumns)
    .from(listings)
    .innerJoin(assets, eq(assets.id, listings.assetId))
    .where(and(eq(listings.isActive, true), inArray(listings.id, [...ids])))
    .orderBy(asc(listings.id));
}

/** The ids of `activeListingsQuery`'s listings, as a subquery: reads of their rows go in the same round trip. */
export function activeListingIds(db: Db, filter: ListingFilter) {
  return db
    .select({ id: listings.id })
    .from(listings)
    .innerJoin(assets, eq(assets.id, listings.assetId))
    .where(and(...activeListingConditions(filter)));
}

/** `findActiveListings` and the instruments of the listings it finds, in one round trip. */
export async function findActiveListingsWithAssets(
  db: Db,
  filter: ListingFilter,
): Promise<{ listings: ListingRow[]; assets: Map<number, AssetRow> }> {
  const [rows, instruments] = await db.batch([
    activeListingsQuery(db, filter),
    db
      .select()
      .from(assets)
      .where(
        inArray(
          assets.id,
          db
            .select({ id: listings.assetId })
            .from(listings)
            .where(inArray(listings.id, activeListingIds(db, filter))),
        ),
      ),
  ]);
  return { listings: rows, assets: new Map(instruments.map((a) => [a.id, a])) };
}

/** Active listings matching every given filter (case-insensitive on codes). */
export async function findActiveListings(db: Db, filter: ListingFilter): Promise<ListingRow[]> {
  return activeListingsQuery(db, filter);
}

/**
 * Records the outcome of a symbol verification: the symbol, or null when the provider has none in
 * the listing's currency. The time lets a negative answer be retried later rather than never.
 */
export async function recordDelayedSymbol(
  db: Db,
  listingId: number,
  symbol: string | null,
  checkedAt: Date,
): Promise<void> {
  await db
    .update(listings)
    .set({ delayedSymbol: symbol, delayedSymbolCheckedAt: checkedAt, updatedAt: sql`now()` })
    .where(eq(listings.id, listingId));
}

/** The instrument of each active listing among `tickers` (upper case), in one query: ticker -> asset ids. */
export async function assetIdsOfTickers(db: Db, tickers: readonly string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (tickers.length === 0) return out;
  const rows = await db
    .selectDistinct({ ticker: listings.ticker, assetId: listings.assetId })
    .from(listings)
    .where(and(eq(listings.isActive, true), inArray(listings.ticker, [...tickers])));
  for (const r of rows) out.set(r.ticker, [...(out.get(r.ticker) ?? []), r.assetId]);
  return out;
}
