import { date, doublePrecision, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { assets } from "./assets";

/**
 * The figures a screen of several conditions compares (market capitalisation, trailing P/E,
 * dividend yield), one row per instrument and quote currency: the last validated ones the delayed
 * provider gave, by the fundamentals routes or the weekly ask of the daily refresh. A screen reads
 * its preferred listing's currency's row (the market capitalisation in the unit of its close),
 * instead of the latest of its dated fundamentals snapshots.
 */
export const screenFigures = pgTable(
  "screen_figures",
  {
    assetId: integer("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    /** The currency of the quote the figures were read with (the market capitalisation is in it). */
    currency: text("currency").notNull(),
    marketCap: doublePrecision("market_cap"),
    peRatio: doublePrecision("pe_ratio"),
    /** A ratio (0.0131 for 1.31 %), as every stored yield. */
    dividendYield: doublePrecision("dividend_yield"),
    /** The day they were fetched. */
    asOf: date("as_of", { mode: "string" }).notNull(),
    source: text("source").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.currency] })],
);
