import { periodKey } from "../bars";
import type { PriceSeries } from "./series";

/**
 * Every indicator value is computed over the listing's stored history up to the answer's last bar,
 * never over the answer's window alone: a date's value is then the same whatever window is asked
 * (`limit`, `from_date` and `to_date` choose only the bars answered), and a short window answers
 * whenever the history is long enough. The history read is the newest HISTORY_BARS bars up to the
 * window's end: twenty years of sessions, where the ingestion stores ten; about thirteen sessions
 * of 1-minute candles, beyond which the oldest are left out (a 1-minute value then depends on
 * where that cut falls: recursions barely, running totals such as OBV by a constant).
 */
export const HISTORY_BARS = 5000;
// Stored snapshots record it (window_bars): changing it needs a migration as 0026 did.

/** The answered bars of a history: `history` from index `first` on. */
export interface WindowedSeries {
  history: PriceSeries;
  first: number;
}

/**
 * Index of the first bar answered: the last `limit` bars of those on or after `fromDate` (a date,
 * compared with each bar's day; for weekly or monthly bars, the bar of the week or month that
 * holds it is answered too).
 * @example firstShown(["2026-11-26T00:00:00Z", "2026-11-27T00:00:00Z"], "2026-11-27", 500) // 1
 */
export function firstShown(
  times: readonly string[],
  fromDate: string | undefined,
  limit: number,
  period?: "weekly" | "monthly",
): number {
  let start = 0;
  if (fromDate) {
    const key = (date: string) => (period ? periodKey(date, period) : date);
    const from = key(fromDate);
    start = times.findIndex((t) => key(t.slice(0, 10)) >= from);
    if (start < 0) start = times.length;
  }
  return Math.max(start, times.length - limit);
}

/** The answered bars as a series of their own. */
export function shownSeries({ history, first }: WindowedSeries): PriceSeries {
  return {
    times: history.times.slice(first),
    epochs: history.epochs.subarray(first),
    open: history.open.subarray(first),
    high: history.high.subarray(first),
    low: history.low.subarray(first),
    close: history.close.subarray(first),
    volume: history.volume.subarray(first),
  };
}
