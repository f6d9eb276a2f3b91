import { date, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { FundDetails } from "../../domain/fundamentals/delayed-figures";
import { assets } from "./assets";

/** Tables of the deep enrichment (GET /fundamental/deep); the DCF reads only these. */

const amount = (name: string) => numeric(name, { precision: 30, scale: 8 });

/**
 * Highlights, analyst ratings and profile of an instrument as fetched with its verified symbol: one
 * row per instrument and fetch date (a second fetch the same day updates it), so the figures of
 * earlier days stay as the instrument's own history (the validation layer's reference).
 */
export const fundamentalSnapshots = pgTable(
  "fundamental_snapshots",
  {
    assetId: integer("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    fetchDate: date("fetch_date").notNull(),
    symbol: text("symbol").notNull(),
    /** Currency of the quote (prices, per-share figures of the quote) and of the reports. */
    currency: text("currency"),
    financialCurrency: text("financial_currency"),
    /** snake_case fields, ratios as ratios (pe_ratio, dividend_yield, roe, beta, market_cap ...); only validated values. */
    highlights: jsonb("highlights").$type<Record<string, number | string | null>>().notNull(),
    analystRatings: jsonb("analyst_ratings").$type<Record<string, number | string | null>>().notNull(),
    /** Description, address, website, employees ... (strings and numbers as the provider gave them). */
    profile: jsonb("profile").$type<Record<string, number | string | null>>().notNull(),
    source: text("source").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  // The symbol is in the key: two listings of one instrument (RACE in Milan and New York) quote
  // per-share figures in their own currencies, and each keeps its own row.
  (t) => [primaryKey({ columns: [t.assetId, t.symbol, t.fetchDate] })],
);

/** One row per statement, period type and period end; `items` holds the line items by snake_case key. */
export const financialStatements = pgTable(
  "financial_statements",
  {
    assetId: integer("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    statement: text("statement", { enum: ["income", "balance", "cashflow"] }).notNull(),
    periodType: text("period_type", { enum: ["annual", "quarterly"] }).notNull(),
    periodEnd: date("period_end").notNull(),
    currency: text("currency"),
    items: jsonb("items").$type<Record<string, number | null>>().notNull(),
    source: text("source").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.statement, t.periodType, t.periodEnd] })],
);

export const earningsHistory = pgTable(
  "earnings_history",
  {
    assetId: integer("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    quarterEnd: date("quarter_end").notNull(),
    period: text("period"),
    epsActual: amount("eps_actual"),
    epsEstimate: amount("eps_estimate"),
    epsDifference: amount("eps_difference"),
    surprisePercent: amount("surprise_percent"),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.quarterEnd] })],
);

/**
 * The reports of an instrument's fiscal quarters as the delayed provider announced them: the coming
 * one (its day, or the range it is expected in, and the analysts' estimates at the last refresh)
 * and those held since (their day). Actuals are in earnings_history, by the same quarter end.
 */
export const earningsCalendar = pgTable(
  "earnings_calendar",
  {
    assetId: integer("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    periodEnd: date("period_end").notNull(),
    reportDate: date("report_date").notNull(),
    reportDateTo: date("report_date_to"),
    epsEstimate: amount("eps_estimate"),
    epsLow: amount("eps_low"),
    epsHigh: amount("eps_high"),
    revenueEstimate: amount("revenue_estimate"),
    revenueLow: amount("revenue_low"),
    revenueHigh: amount("revenue_high"),
    source: text("source").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.assetId, t.periodEnd] }),
    index("earnings_calendar_report_date_idx").on(t.reportDate),
  ],
);

/** Analyst trend per horizon (0q, +1q, 0y, +1y): growth and EPS estimates used by the eps model. */
export const earningsTrends = pgTable(
  "earnings_trends",
  {
    assetId: integer("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    endDate: date("end_date"),
    growth: amount("growth"),
    epsAvg: amount("eps_avg"),
    epsLow: amount("eps_low"),
    epsHigh: amount("eps_high"),
    revenueAvg: amount("revenue_avg"),
    analysts: integer("analysts"),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.period] }), index("earnings_trends_asset_idx").on(t.assetId)],
);

/** A fund's holdings, sector weights and asset classes as fetched on a day (weights as ratios). */
export const etfDetails = pgTable(
  "etf_details",
  {
    assetId: integer("asset_id")
      .notNull()
      .references(() => assets.id, { onDelete: "cascade" }),
    fetchDate: date("fetch_date").notNull(),
    symbol: text("symbol").notNull(),
    details: jsonb("details").$type<FundDetails>().notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.fetchDate] })],
);
