import { isoDay } from "./instants";
/** A daily (or aggregated) price bar; prices adjusted for splits, `adjClose` also for dividends. */
export interface Bar {
  date: string; // YYYY-MM-DD
  open: number;
  high: number;
  low: number;
  close: number;
  adjClose: number;
  volume: number;
}

export type Resolution = "daily" | "weekly" | "monthly";

/** Monday of the ISO week of a YYYY-MM-DD date. */
function weekKey(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - back);
  return isoDay(d);
}

const monthKey = (date: string) => date.slice(0, 7);

/** The week (its Monday) or month (YYYY-MM) a date falls in: what weekly and monthly bars are grouped by. */
export const periodKey = (date: string, resolution: "weekly" | "monthly") =>
  resolution === "weekly" ? weekKey(date) : monthKey(date);

/**
 * Aggregates ascending daily bars into weekly (ISO weeks) or monthly bars: open of the first bar,
 * highest high, lowest low, close and adjusted close of the last, summed volume; dated by the
 * first trading day of the period (as the delayed provider dates its 1wk/1mo bars).
 * @example resample(dailyBars, "weekly")
 */
export function resample(bars: readonly Bar[], resolution: Resolution): Bar[] {
  if (resolution === "daily") return [...bars];
  const keyOf = resolution === "weekly" ? weekKey : monthKey;
  const out: Bar[] = [];
  let key = "";
  let cur: Bar | undefined;
  for (const b of bars) {
    const k = keyOf(b.date);
    if (cur && k === key) {
      if (b.high > cur.high) cur.high = b.high;
      if (b.low < cur.low) cur.low = b.low;
      cur.close = b.close;
      cur.adjClose = b.adjClose;
      cur.volume += b.volume;
    } else {
      if (cur) out.push(cur);
      key = k;
      cur = { ...b };
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** Most daily bars a week or a month can hold: one a calendar day. */
const MOST_DAILY_BARS_IN = { weekly: 7, monthly: 31 } as const;

/**
 * The newest daily bars to read for the newest `periods` weekly or monthly bars: one period more,
 * at most MOST_DAILY_BARS_IN each, so whatever the gaps the read holds `periods` whole periods
 * after its oldest one (which the read may have cut short).
 */
export const dailyBarsFor = (periods: number, resolution: "weekly" | "monthly") =>
  (periods + 1) * MOST_DAILY_BARS_IN[resolution];

/**
 * The newest `periods` weekly or monthly bars from the newest daily bars read (`dailyBarsFor`),
 * as resampling every daily bar would give them; `cut` when the read stopped at its limit (older
 * bars exist), so its oldest period may be short and is left out.
 */
export function newestPeriods(
  daily: readonly Bar[],
  resolution: "weekly" | "monthly",
  periods: number,
  cut: boolean,
): Bar[] {
  const bars = resample(daily, resolution);
  return (cut ? bars.slice(1) : bars).slice(-periods);
}

/**
 * Bars with every price multiplied by `factor` (0.01 turns pence into pounds), rounded to 8 decimals,
 * the precision prices are stored with, so no binary residue (81.23500000000001) reaches the database.
 */
export function scaleBars(bars: readonly Bar[], factor: number): Bar[] {
  if (factor === 1) return [...bars];
  const s = (x: number) => Number((x * factor).toFixed(8));
  return bars.map((b) => ({
    ...b,
    open: s(b.open),
    high: s(b.high),
    low: s(b.low),
    close: s(b.close),
    adjClose: s(b.adjClose),
  }));
}
