import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { pricesIntraday, realtimeSubscriptions } from "../schema";
import { CANDLE_REWRITE } from "./intraday";

export type SubscriptionRow = typeof realtimeSubscriptions.$inferSelect;

/** Stores (or reactivates) the subscription of a catalogue ticker. */
export async function saveSubscription(
  db: Db,
  row: { ticker: string; listingId: number; tvExchange: string; tvSymbol: string },
): Promise<SubscriptionRow | undefined> {
  const [saved] = await db
    .insert(realtimeSubscriptions)
    .values({ ...row, isActive: true })
    .onConflictDoUpdate({
      target: realtimeSubscriptions.ticker,
      set: { isActive: true, listingId: row.listingId, tvExchange: row.tvExchange, tvSymbol: row.tvSymbol },
    })
    .returning();
  return saved;
}

export async function deactivateSubscription(db: Db, ticker: string): Promise<void> {
  await db.update(realtimeSubscriptions).set({ isActive: false }).where(eq(realtimeSubscriptions.ticker, ticker));
}

/** The tickers the cron brings back to streaming. */
export async function activeSubscriptions(db: Db): Promise<string[]> {
  const rows = await db
    .select({ ticker: realtimeSubscriptions.ticker })
    .from(realtimeSubscriptions)
    .where(eq(realtimeSubscriptions.isActive, true));
  return rows.map((r) => r.ticker);
}

/** Whether the ticker has an active stored subscription (only catalogue tickers are stored). */
export async function hasActiveSubscription(db: Db, ticker: string): Promise<boolean> {
  const rows = await db
    .select({ ticker: realtimeSubscriptions.ticker })
    .from(realtimeSubscriptions)
    .where(and(eq(realtimeSubscriptions.ticker, ticker), eq(realtimeSubscriptions.isActive, true)))
    .limit(1);
  return rows.length > 0;
}

/** Counts `count` ticks on the stored subscription, the last at `at` (a no-op for tickers without one). */
export async function countTick(db: Db, ticker: string, at: Date, count = 1): Promise<void> {
  await db
    .update(realtimeSubscriptions)
    .set({ lastTickAt: at, tickCount: sql`${realtimeSubscriptions.tickCount} + ${count}` })
    .where(and(eq(realtimeSubscriptions.ticker, ticker), eq(realtimeSubscriptions.isActive, true)));
}

/** Counts `count` candles the stream sent outside the venue's session, the last at `at` (a no-op for tickers without a subscription). */
export async function countOutOfSession(db: Db, ticker: string, at: Date, count: number): Promise<void> {
  await db
    .update(realtimeSubscriptions)
    .set({
      lastOutOfSessionAt: at,
      outOfSessionCount: sql`${realtimeSubscriptions.outOfSessionCount} + ${count}`,
    })
    .where(and(eq(realtimeSubscriptions.ticker, ticker), eq(realtimeSubscriptions.isActive, true)));
}

/** The stored subscriptions whose stream sent candles outside the venue's session: how many, the last when. */
export async function outOfSessionCounts(db: Db) {
  return db
    .select({
      ticker: realtimeSubscriptions.ticker,
      count: realtimeSubscriptions.outOfSessionCount,
      lastAt: realtimeSubscriptions.lastOutOfSessionAt,
    })
    .from(realtimeSubscriptions)
    .where(gt(realtimeSubscriptions.outOfSessionCount, 0));
}

/** A 1-minute candle as a tick gives it: prices as decimal strings. */
export interface IntradayCandle {
  minute: Date;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: number;
}

/** The candle of a minute, written on its first tick and updated while the minute is open. */
export async function upsertIntradayCandle(
  db: Db,
  listingId: number,
  c: IntradayCandle,
  source: string,
): Promise<void> {
  await db
    .insert(pricesIntraday)
    .values({
      listingId,
      minute: c.minute,
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
      volume: c.volume,
      source,
    })
    .onConflictDoUpdate({
      target: [pricesIntraday.listingId, pricesIntraday.minute],
      // The source too: the stream's own minute from now on, which a provider's fetch must not write over.
      set: CANDLE_REWRITE,
    });
}
