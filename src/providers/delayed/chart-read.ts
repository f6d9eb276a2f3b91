import type { Bar } from "../../domain/bars";
import type { Dividend, Split } from "../../domain/corporate-actions";
import { describe, type SchemaDrift } from "../../domain/drift";
import { isoDay } from "../../domain/instants";
import { DELAYED } from "../../domain/provider-names";
import { float32Decimal } from "../../domain/provider-precision";
import type { ChartResult } from "./chart-schema";

/** What the client makes of a chart result: bars, events and the quote's prices, dated by the venue's sessions. */

/** The price hint of a chart (decimals a price of it is quoted to), within what a price may carry. */
export const hintOf = (r: ChartResult) => Math.min(8, Math.max(0, Math.round(r.meta.priceHint ?? 2)));

/**
 * The venue's session day of a bar or event stamp (the session's open, in UTC): the date at the
 * venue's offset, so a Sydney session opening at 10:00 local (23:00 UTC the day before) is dated by
 * its own day. The offset is today's: a summer-time hour never moves an open across midnight.
 */
export const sessionDay = (epoch: number, r: ChartResult) => isoDay(new Date((epoch + (r.meta.gmtoffset ?? 0)) * 1000));

/** The chart's parallel arrays as bars, float32 noise removed; slots without a close are skipped. */
export const barsOf = (r: ChartResult): Bar[] => slotsOf(r).map(({ time: _, ...bar }) => bar);

/**
 * The chart's bars with the epoch second each is stamped with, at the provider's precision
 * (float32Decimal). The price hint never cuts a digit the float32 holds: a 4:1 split's 52.948 / 4
 * is 13.237, and intraday trades carry more decimals than it (288.345 on a 2-decimal share in a
 * recorded 5m answer); it only reads a large price whose float32 cannot hold its decimals.
 */
export function slotsOf(r: ChartResult): (Bar & { time: number })[] {
  const hint = hintOf(r);
  const exact = (x: number) => float32Decimal(x, hint);
  const q = r.indicators?.quote?.[0] ?? {};
  const adj = r.indicators?.adjclose?.[0]?.adjclose;
  const bars: (Bar & { time: number })[] = [];
  const times = r.timestamp ?? [];
  for (let i = 0; i < times.length; i++) {
    const close = q.close?.[i];
    const t = times[i];
    if (close === null || close === undefined || t === null || t === undefined) continue;
    const c = exact(close);
    const pick = (arr: (number | null | undefined)[] | undefined) => {
      const v = arr?.[i];
      return v === null || v === undefined ? c : exact(v);
    };
    const a = adj?.[i];
    // Bars are stamped at the session open in UTC: dated by the venue's day.
    bars.push({
      time: t,
      date: sessionDay(t, r),
      open: pick(q.open),
      high: pick(q.high),
      low: pick(q.low),
      close: c,
      adjClose: a === null || a === undefined ? c : exact(a),
      volume: Math.round(q.volume?.[i] ?? 0),
    });
  }
  return bars;
}

/**
 * The chart's dividends and splits, dated as its bars are (the session the event is stamped with),
 * oldest first. Events of no use (a ratio not above zero, an amount not above zero) are left out.
 */
export function eventsOf(r: ChartResult): { dividends: Dividend[]; splits: Split[]; capitalGains: Dividend[] } {
  const exact = (x: number) => float32Decimal(x);
  const byDate = <T extends { date: string }>(xs: T[]) => xs.sort((a, b) => (a.date < b.date ? -1 : 1));
  const amounts = (events: Record<string, { amount: number; date: number }> | undefined) =>
    Object.values(events ?? {})
      .filter((d) => d.amount > 0)
      // Amounts carry more decimals than the price hint (0.205 on a 2-decimal share): float32 noise removed as for prices.
      .map((d) => ({ date: sessionDay(d.date, r), amount: exact(d.amount) }));
  const dividends = amounts(r.events?.dividends);
  const splits = Object.values(r.events?.splits ?? {})
    .filter((x) => x.numerator > 0 && x.denominator > 0)
    .map((x) => ({ date: sessionDay(x.date, r), numerator: x.numerator, denominator: x.denominator }));
  return {
    dividends: byDate(dividends),
    splits: byDate(splits),
    capitalGains: byDate(amounts(r.events?.capitalGains)),
  };
}

const COLUMNS = ["open", "high", "low", "close", "volume"] as const;

/**
 * The price columns a result with timestamps always carries beside them (a range without sessions
 * has neither): one gone is drift, though the reader cannot know it field by field.
 */
export function columnsMissing(r: ChartResult): SchemaDrift[] {
  const q = r.indicators?.quote?.[0] ?? {};
  if (!r.timestamp?.length)
    // Prices without their times: the timestamps are what went.
    return q.close?.length
      ? [
          {
            provider: DELAYED,
            document: "chart",
            path: "chart.result[].timestamp",
            expected: "a list beside the prices",
            seen: describe(r.timestamp),
          },
        ]
      : [];
  return COLUMNS.filter((c) => !Array.isArray(q[c])).map((c) => ({
    provider: DELAYED,
    document: "chart",
    path: `chart.result[].indicators.quote[].${c}`,
    expected: "a list beside the timestamps",
    seen: "absent",
  }));
}
