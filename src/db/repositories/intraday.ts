import { and, asc, eq, gte, inArray, lt, ne, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { IntradayCandle, IntradayInterval } from "../../domain/intraday";
import { STREAM } from "../../domain/provider-names";
import { inOneTransaction } from "../batch";
import type { Db } from "../client";
import { intradayBars, intradayCoverage, pricesIntraday } from "../schema";

/** Rows of one insert statement: 9 parameters each, well under Postgres's 65,535. */
const ROWS_PER_INSERT = 2_000;

/** `"{interval}|{day}"` of each of the listing's sessions stored whole, among `days`. */
export async function readIntradayCoverage(db: Db, listingId: number, days: readonly string[]): Promise<Set<string>> {
  if (days.length === 0) return new Set();
  const rows = await db
    .select({ interval: intradayCoverage.interval, day: intradayCoverage.day })
    .from(intradayCoverage)
    .where(and(eq(intradayCoverage.listingId, listingId), inArray(intradayCoverage.day, [...days])));
  return new Set(rows.map((r) => `${r.interval}|${r.day}`));
}

const decimal = (x: number) => x.toFixed(8);

/** A stored candle or bar rewritten by a newer one of the same minute: its prices, volume and source. */
export const CANDLE_REWRITE = {
  open: sql`excluded.open`,
  high: sql`excluded.high`,
  low: sql`excluded.low`,
  close: sql`excluded.close`,
  volume: sql`excluded.volume`,
  source: sql`excluded.source`,
  updatedAt: sql`now()`,
};

/**
 * Stores what one provider request gave, in one transaction: 1-minute candles in prices_intraday
 * (a minute the stream stored keeps the stream's candle: it is the service's own observation),
 * coarser bars in intraday_bars, and the sessions it held whole in intraday_coverage. A rerun
 * rewrites the same values, so concurrent fetches of the same window leave one answer.
 */
export async function storeIntradayFetch(
  db: Db,
  listingId: number,
  fetched: {
    interval: IntradayInterval;
    candles: readonly Omit<IntradayCandle, "source">[];
    source: string;
    wholeDays: readonly string[];
    at: Date;
  },
): Promise<void> {
  const statements: BatchItem<"pg">[] = [];
  for (let i = 0; i < fetched.candles.length; i += ROWS_PER_INSERT) {
    const chunk = fetched.candles.slice(i, i + ROWS_PER_INSERT);
    const values = chunk.map((c) => ({
      listingId,
      open: decimal(c.open),
      high: decimal(c.high),
      low: decimal(c.low),
      close: decimal(c.close),
      volume: c.volume,
      source: fetched.source,
    }));
    statements.push(
      fetched.interval === "1m"
        ? db
            .insert(pricesIntraday)
            .values(values.map((v, j) => ({ ...v, minute: (chunk[j] as IntradayCandle).start })))
            .onConflictDoUpdate({
              target: [pricesIntraday.listingId, pricesIntraday.minute],
              set: CANDLE_REWRITE,
              setWhere: ne(pricesIntraday.source, STREAM),
            })
        : db
            .insert(intradayBars)
            .values(
              values.map((v, j) => ({
                ...v,
                interval: fetched.interval as "5m",
                start: (chunk[j] as IntradayCandle).start,
              })),
            )
            .onConflictDoUpdate({
              target: [intradayBars.listingId, intradayBars.interval, intradayBars.start],
              set: CANDLE_REWRITE,
            }),
    );
  }
  if (fetched.wholeDays.length)
    statements.push(
      db
        .insert(intradayCoverage)
        .values(fetched.wholeDays.map((day) => ({ listingId, interval: fetched.interval, day, fetchedAt: fetched.at })))
        .onConflictDoUpdate({
          target: [intradayCoverage.listingId, intradayCoverage.interval, intradayCoverage.day],
          set: { fetchedAt: sql`excluded.fetched_at` },
        }),
    );
  await inOneTransaction(db, statements);
}

const candleOf = (r: {
  start: Date;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: number;
  source: string;
}): IntradayCandle => ({
  start: r.start,
  open: Number(r.open),
  high: Number(r.high),
  low: Number(r.low),
  close: Number(r.close),
  volume: r.volume,
  source: r.source,
});

/** The listing's stored 1-minute candles from `from` (inclusive) to `to` (exclusive), oldest first, with their source. */
export async function readMinuteCandles(db: Db, listingId: number, from: Date, to: Date): Promise<IntradayCandle[]> {
  const rows = await db
    .select({
      start: pricesIntraday.minute,
      open: pricesIntraday.open,
      high: pricesIntraday.high,
      low: pricesIntraday.low,
      close: pricesIntraday.close,
      volume: pricesIntraday.volume,
      source: pricesIntraday.source,
    })
    .from(pricesIntraday)
    .where(
      and(eq(pricesIntraday.listingId, listingId), gte(pricesIntraday.minute, from), lt(pricesIntraday.minute, to)),
    )
    .orderBy(asc(pricesIntraday.minute));
  return rows.map(candleOf);
}

/** The listing's stored bars of a coarser interval from `from` (inclusive) to `to` (exclusive), oldest first. */
export async function readIntervalBars(
  db: Db,
  listingId: number,
  interval: Exclude<IntradayInterval, "1m">,
  from: Date,
  to: Date,
): Promise<IntradayCandle[]> {
  const rows = await db
    .select({
      start: intradayBars.start,
      open: intradayBars.open,
      high: intradayBars.high,
      low: intradayBars.low,
      close: intradayBars.close,
      volume: intradayBars.volume,
      source: intradayBars.source,
    })
    .from(intradayBars)
    .where(
      and(
        eq(intradayBars.listingId, listingId),
        eq(intradayBars.interval, interval),
        gte(intradayBars.start, from),
        lt(intradayBars.start, to),
      ),
    )
    .orderBy(asc(intradayBars.start));
  return rows.map(candleOf);
}
