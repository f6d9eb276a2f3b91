import { bigint, date, integer, numeric, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { listings } from "./listings";

/** Prices are stored exactly (numeric); computation reads them as float64. */
const price = (name: string) => numeric(name, { precision: 20, scale: 8 });

export const pricesDaily = pgTable(
  "prices_daily",
  {
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    date: date("date").notNull(),
    open: price("open"),
    high: price("high"),
    low: price("low"),
    close: price("close").notNull(),
    adjClose: price("adj_close").notNull(),
    volume: bigint("volume", { mode: "number" }).notNull().default(0),
    dataSource: text("data_source").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.date] })],
);

/** 1-minute candles saved by the realtime stream; a TimescaleDB hypertable where the extension exists. */
export const pricesIntraday = pgTable(
  "prices_intraday",
  {
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    open: price("open").notNull(),
    high: price("high").notNull(),
    low: price("low").notNull(),
    close: price("close").notNull(),
    volume: bigint("volume", { mode: "number" }).notNull().default(0),
    source: text("source").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.minute] })],
);

/**
 * Intraday bars the delayed provider gave at a coarser interval (5m, 15m, 1h) for sessions older
 * than the minutes it keeps: what /intraday reads for those sessions. Stamped at the bar's first minute.
 */
export const intradayBars = pgTable(
  "intraday_bars",
  {
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    interval: text("interval", { enum: ["5m", "15m", "1h"] }).notNull(),
    start: timestamp("start", { withTimezone: true }).notNull(),
    open: price("open").notNull(),
    high: price("high").notNull(),
    low: price("low").notNull(),
    close: price("close").notNull(),
    volume: bigint("volume", { mode: "number" }).notNull().default(0),
    source: text("source").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.interval, t.start] })],
);

/**
 * The sessions whose whole day of intraday candles is stored at an interval (1m in prices_intraday,
 * the others in intraday_bars): fetched after the close, so they are never asked for again.
 */
export const intradayCoverage = pgTable(
  "intraday_coverage",
  {
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    interval: text("interval", { enum: ["1m", "5m", "15m", "1h"] }).notNull(),
    day: date("day").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.interval, t.day] })],
);
