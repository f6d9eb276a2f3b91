import { date, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Last value read from the macro provider per series; value is a ratio (0.0412 = 4.12 %). */
export const macroRatesCache = pgTable("macro_rates_cache", {
  seriesId: text("series_id").primaryKey(),
  label: text("label").notNull(),
  value: numeric("value", { precision: 12, scale: 8 }).notNull(),
  unit: text("unit").notNull(),
  observationDate: date("observation_date").notNull(),
  fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
});
