import { asc, eq, sql } from "drizzle-orm";
import type { Queryable } from "../client";
import { assets, indexMembers, listings, marketIndices } from "../schema";

/** Every stored index, by code. */
export function storedIndices(db: Queryable) {
  return db.select().from(marketIndices).orderBy(asc(marketIndices.code));
}

/** An index's members with their asset and listing, heaviest first (no weight last), then by name. */
export function indexMembersOf(db: Queryable, indexCode: string) {
  return db
    .select({
      isin: assets.isin,
      name: assets.name,
      ticker: listings.ticker,
      exchange: listings.exchange,
      currency: listings.currency,
      sector: assets.sector,
      industry: assets.industry,
      country: assets.country,
      weight: indexMembers.weight,
    })
    .from(indexMembers)
    .innerJoin(assets, eq(assets.id, indexMembers.assetId))
    .leftJoin(listings, eq(listings.id, indexMembers.listingId))
    .where(eq(indexMembers.indexCode, indexCode))
    .orderBy(sql`${indexMembers.weight} desc nulls last`, asc(assets.name));
}
