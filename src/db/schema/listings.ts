import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { assets } from "./assets";

/** One row per ticker, exchange and currency of an instrument; each has its own price series. */
export const listings = pgTable(
  "listings",
  {
    id: serial("id").primaryKey(),
    assetId: integer("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    ticker: text("ticker").notNull(),
    /** Exchange code as stored in the catalogue; null when unknown. */
    exchange: text("exchange"),
    currency: text("currency").notNull(),
    name: text("name").notNull(),
    source: text("source").notNull(),
    isPrimary: boolean("is_primary").notNull().default(false),
    isActive: boolean("is_active").notNull().default(true),
    /**
     * The listing that stands for its instrument in screens and calendars: its active listing first
     * by the /eod choice (`compareListings`). Kept by the database itself (migration 0022's
     * triggers), whichever statement changes an instrument's listings; never written by the service.
     */
    preferred: boolean("preferred").notNull().default(false),
    /** Delayed-provider symbol found from the ISIN and checked against the currency (null: never query). */
    delayedSymbol: text("delayed_symbol"),
    delayedSymbolCheckedAt: timestamp("delayed_symbol_checked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("listings_ticker_exchange_currency_uq").on(t.ticker, sql`coalesce(${t.exchange}, '')`, t.currency),
    index("listings_asset_idx").on(t.assetId),
    index("listings_ticker_idx").on(t.ticker),
    // GET /search: a provider symbol typed as such (MC.PA, RACE.MI).
    index("listings_delayed_symbol_idx").on(t.delayedSymbol),
    index("listings_preferred_idx").on(t.assetId).where(sql`${t.preferred}`),
  ],
);
