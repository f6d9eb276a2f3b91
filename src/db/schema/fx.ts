import { date, integer, numeric, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Daily euro reference rates: units of `currency` for one euro on `day`, as the source published
 * them (the ECB's first; a fallback's only where the ECB's is missing). Written once fetched.
 */
export const fxRates = pgTable(
  "fx_rates",
  {
    currency: text("currency").notNull(),
    day: date("day").notNull(),
    rate: numeric("rate").notNull(),
    source: text("source").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.day] })],
);

/**
 * What each currency's rates of a year are stored over: every publication of the year from
 * `since` to `through`, one span (a window fetched touches it, so it only grows).
 */
export const fxCoverage = pgTable(
  "fx_coverage",
  {
    currency: text("currency").notNull(),
    year: integer("year").notNull(),
    since: date("since").notNull(),
    through: date("through").notNull(),
    storedAt: timestamp("stored_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.year] })],
);
