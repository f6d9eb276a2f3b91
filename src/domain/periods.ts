import type { Resolution } from "./bars";

export const PERIODS = ["1d", "5d", "1mo", "3mo", "6mo", "1y", "2y", "5y", "10y", "ytd", "max", "daily", "weekly", "monthly"] as const;
export type Period = (typeof PERIODS)[number];

/** What a period asks for: a date window (inclusive; null = unbounded), or the last N bars. */
export interface PeriodWindow {
  from: string | null;
  to: string | null;
  lastBars: number | null;
  resolution: Resolution;
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

function monthsBefore(today: string, months: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  // Clamp to the month's last day (31 March minus one month is 28/29 February, not 2/3 March).
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return iso(d);
}

/**
 * The window of a period relative to `today` (UTC date). 1d and 5d are the last 1 and 5 sessions;
 * calendar periods start the same day N months back; daily/weekly/monthly and max are unbounded.
 * @example windowOf("1y", "2026-11-25") // { from: "2025-11-25", to: null, lastBars: null, resolution: "daily" }
 */
export function windowOf(period: Period, today: string): PeriodWindow {
  const daily = (from: string | null, lastBars: number | null = null): PeriodWindow => ({ from, to: null, lastBars, resolution: "daily" });
  switch (period) {
    case "1d":
      return daily(null, 1);
    case "5d":
      return daily(null, 5);
    case "1mo":
      return daily(monthsBefore(today, 1));
    case "3mo":
      return daily(monthsBefore(today, 3));
    case "6mo":
      return daily(monthsBefore(today, 6));
    case "1y":
      return daily(monthsBefore(today, 12));
    case "2y":
      return daily(monthsBefore(today, 24));
    case "5y":
      return daily(monthsBefore(today, 60));
    case "10y":
      return daily(monthsBefore(today, 120));
    case "ytd":
      return daily(`${today.slice(0, 4)}-01-01`);
    case "max":
    case "daily":
      return daily(null);
    case "weekly":
      return { from: null, to: null, lastBars: null, resolution: "weekly" };
    case "monthly":
      return { from: null, to: null, lastBars: null, resolution: "monthly" };
  }
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
  return !Number.isNaN(d.getTime()) && iso(d) === s;
}
