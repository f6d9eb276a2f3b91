import type { Resolution } from "./bars";
import { addDays, isoDay } from "./instants";

export const PERIODS = [
  "1d",
  "5d",
  "1mo",
  "3mo",
  "6mo",
  "1y",
  "2y",
  "5y",
  "10y",
  "ytd",
  "max",
  "daily",
  "weekly",
  "monthly",
] as const;
export type Period = (typeof PERIODS)[number];

/** What a period asks for: a date window (inclusive; null = unbounded), or the last N bars. */
export interface PeriodWindow {
  from: string | null;
  to: string | null;
  lastBars: number | null;
  resolution: Resolution;
}

function monthsBefore(today: string, months: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  // Clamp to the month's last day (31 March minus one month is 28/29 February, not 2/3 March).
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return isoDay(d);
}

/**
 * The window of a period relative to `today` (UTC date). 1d and 5d are the last 1 and 5 sessions;
 * calendar periods start the same day N months back; daily/weekly/monthly and max are unbounded.
 * @example windowOf("1y", "2026-11-25") // { from: "2025-11-25", to: null, lastBars: null, resolution: "daily" }
 */
export function windowOf(period: Period, today: string): PeriodWindow {
  const months = MONTHS_BACK[period];
  if (months !== undefined) return { from: monthsBefore(today, months), to: null, lastBars: null, resolution: "daily" };
  const lastBars = LAST_BARS[period] ?? null;
  const from = period === "ytd" ? `${today.slice(0, 4)}-01-01` : null;
  const resolution: Resolution = period === "weekly" || period === "monthly" ? period : "daily";
  return { from, to: null, lastBars, resolution };
}

const MONTHS_BACK: Partial<Record<Period, number>> = {
  "1mo": 1,
  "3mo": 3,
  "6mo": 6,
  "1y": 12,
  "2y": 24,
  "5y": 60,
  "10y": 120,
};
const LAST_BARS: Partial<Record<Period, number>> = { "1d": 1, "5d": 5 };

/** The earliest date any provider serves: `max` and the bar-size periods reach back to it. */
const EARLIEST = "1970-01-01";

/**
 * The first calendar date a provider must be asked from to cover a period's bars: its window's
 * start, a fortnight back for the last 1 or 5 sessions (whatever the holidays), else all history.
 * @example fetchFromOf("5d", "2026-11-25") // "2026-11-11"
 */
export function fetchFromOf(period: Period, today: string): string {
  const w = windowOf(period, today);
  return w.from ?? (w.lastBars ? addDays(today, -14) : EARLIEST);
}

/** Ten years before `today`: what a fresh ingestion fetches. */
export function tenYearsBefore(today: string): string {
  return monthsBefore(today, 120);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date in YYYY-MM-DD form (2026-02-30 is not). */
export function isCalendarDate(s: string): boolean {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && isoDay(d) === s;
}
