import { bigint, boolean, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { listings } from "./listings";

/** Stored subscriptions of catalogue tickers; the cron restores the active ones. */
export const realtimeSubscriptions = pgTable("realtime_subscriptions", {
  ticker: text("ticker").primaryKey(),
  listingId: integer("listing_id").references(() => listings.id, { onDelete: "cascade" }),
  tvExchange: text("tv_exchange").notNull(),
  tvSymbol: text("tv_symbol").notNull(),
  isActive: boolean("is_active").notNull().default(true),
  subscribedAt: timestamp("subscribed_at", { withTimezone: true }).notNull().defaultNow(),
  lastTickAt: timestamp("last_tick_at", { withTimezone: true }),
  tickCount: bigint("tick_count", { mode: "number" }).notNull().default(0),
  /** Candles the stream sent outside the venue's session (a weekend, before the open): counted, never stored. */
  outOfSessionCount: bigint("out_of_session_count", { mode: "number" }).notNull().default(0),
  lastOutOfSessionAt: timestamp("last_out_of_session_at", { withTimezone: true }),
});
