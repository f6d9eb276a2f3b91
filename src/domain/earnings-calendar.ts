/**
 * The earnings calendar's rows from the delayed provider's quoteSummary: the coming report
 * (calendarEvents: its date or the range the provider expects it in, and the analysts' estimates)
 * and the last one held (calendarEvents.earningsCallDate, the call of the last quarter reported).
 * Past quarters' actuals are the stored earnings history's. Pure.
 */

import { day, earningsRows, mod, type Summary, trendRows } from "./fundamentals/delayed-figures";
import { isoDay } from "./instants";
import { unboxNumber } from "./numbers";

/** One report of a fiscal quarter, as the provider announced it. */
export interface CalendarRow {
  /** The last day of the fiscal quarter reported. */
  periodEnd: string;
  /** The report's day (UTC), or the first day of the range the provider expects it in. */
  reportDate: string;
  /** The last day of that range; null when the day is set. */
  reportDateTo: string | null;
  epsEstimate: number | null;
  epsLow: number | null;
  epsHigh: number | null;
  revenueEstimate: number | null;
  revenueLow: number | null;
  revenueHigh: number | null;
}

const days = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [])
    .map((x) => day(x))
    .filter((d): d is string => d !== null)
    .sort();

/** The last day of the month three months after `date`'s month (a quarter on from a quarter's end). */
function quarterAfter(date: string): string {
  const d = new Date(`${date.slice(0, 7)}-01T00:00:00Z`);
  return isoDay(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 4, 0)));
}

/**
 * The reports the summary names, oldest first: the last one held (its quarter: the newest of the
 * earnings history that ended before the call) and the coming one (its quarter: the trend's current
 * quarter, `0q`, else the one after the newest reported). A date that cannot belong to its
 * quarter (before its end, or after the next quarter's end) is left out.
 * @example calendarRows(summaryOfAapl)[1] // {periodEnd: "2025-03-31", reportDate: "2025-04-30", reportDateTo: "2025-05-05", ...}
 */
export function calendarRows(s: Summary): CalendarRow[] {
  const events = (mod(s, "calendarEvents")?.earnings ?? {}) as Record<string, unknown>;
  const reported = earningsRows(s)
    .map((r) => r.quarterEnd)
    .sort();
  // A quarter is reported after its end and before the next one ends (a 10-Q is due in 40 days,
  // a 10-K in 60 to 90): a later date belongs to another quarter.
  const plausible = (periodEnd: string, report: string) => report > periodEnd && report <= quarterAfter(periodEnd);
  const out: CalendarRow[] = [];
  const none = {
    epsEstimate: null,
    epsLow: null,
    epsHigh: null,
    revenueEstimate: null,
    revenueLow: null,
    revenueHigh: null,
  };

  const call = days(events.earningsCallDate).at(-1);
  const heldFor = call ? [...reported].reverse().find((q) => q < call) : undefined;
  if (call && heldFor && plausible(heldFor, call))
    out.push({ periodEnd: heldFor, reportDate: call, reportDateTo: null, ...none });

  const coming = days(events.earningsDate);
  const first = coming[0];
  const last = coming.at(-1);
  const lastReported = reported.at(-1);
  const periodEnd =
    trendRows(s).find((t) => t.period === "0q")?.endDate ?? (lastReported ? quarterAfter(lastReported) : null);
  if (first && last && periodEnd && plausible(periodEnd, first) && periodEnd !== heldFor)
    out.push({
      periodEnd,
      reportDate: first,
      reportDateTo: last === first ? null : last,
      epsEstimate: unboxNumber(events.earningsAverage),
      epsLow: unboxNumber(events.earningsLow),
      epsHigh: unboxNumber(events.earningsHigh),
      revenueEstimate: unboxNumber(events.revenueAverage),
      revenueLow: unboxNumber(events.revenueLow),
      revenueHigh: unboxNumber(events.revenueHigh),
    });
  return out;
}
