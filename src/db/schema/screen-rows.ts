import { boolean, date, doublePrecision, integer, pgTable, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { listings } from "./listings";

/**
 * Each listing's indicator snapshots side by side, with its last close: what a screen of several
 * conditions reads, one row per instrument tested in one pass (src/domain/indicators/screen-row.ts
 * says which value sits where). Written with the snapshots, from the same values.
 */
export const screenRows = pgTable("screen_rows", {
  listingId: integer("listing_id")
    .primaryKey()
    .references(() => listings.id, { onDelete: "cascade" }),
  /** The listing's instrument and currency, copied when written: the stored figures are joined on them. */
  assetId: integer("asset_id").notNull(),
  currency: text("currency"),
  /** Its listing's `preferred`, kept by the database as the snapshots' is (migration 0027). */
  preferred: boolean("preferred").notNull().default(false),
  /** The layout and arithmetic of `values` (SNAPSHOT_FORMULA): a row of another is not read. */
  formula: smallint("formula").notNull(),
  windowBars: integer("window_bars").notNull(),
  /** The last bar's date and close. */
  asOf: date("as_of", { mode: "string" }).notNull(),
  close: doublePrecision("close").notNull(),
  /** The snapshots' values in SNAPSHOT_SET order; null where not computable or not a number. */
  values: doublePrecision("values").array().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});
