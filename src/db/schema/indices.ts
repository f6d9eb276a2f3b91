import { date, integer, jsonb, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { assets } from "./assets";
import { listings } from "./listings";

/** A stock index whose composition the service keeps (versioned seed data: tools/db/indices). */
export const marketIndices = pgTable("market_indices", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
  /** The delayed provider's symbol of the index level (^FCHI). */
  symbol: text("symbol").notNull(),
  /** Names callers use, as matched: lower case, letters and digits only. */
  aliases: jsonb("aliases").$type<string[]>().notNull(),
  /** The date the stored composition held. */
  asOf: date("as_of").notNull(),
  source: text("source").notNull(),
});

/** One member of an index: the instrument, its listing on the index's exchange, its weight (a ratio) when known. */
export const indexMembers = pgTable(
  "index_members",
  {
    indexCode: text("index_code")
      .notNull()
      .references(() => marketIndices.code, { onDelete: "cascade" }),
    assetId: integer("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    listingId: integer("listing_id").references(() => listings.id, { onDelete: "set null" }),
    weight: numeric("weight", { precision: 12, scale: 8 }),
  },
  (t) => [primaryKey({ columns: [t.indexCode, t.assetId] })],
);
