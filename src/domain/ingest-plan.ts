/**
 * What an ingestion still has to fetch: only the parts of the asked window that are not stored.
 * Dates are YYYY-MM-DD (UTC); windows are inclusive.
 */

import { addDays } from "./instants";
import { calendarHolds, isTradingDay, type Venue } from "./venues";

export interface DateRange {
  from: string;
  to: string;
}

/** The earlier and the later of two ISO dates (they compare as strings). */
export const earlier = (a: string, b: string) => (a <= b ? a : b);
export const later = (a: string, b: string) => (a >= b ? a : b);

/** The calendar day before `date`. */
export const dayBefore = (date: string) => addDays(date, -1);

/**
 * A day on which no venue we list trades, Tokyo on Christmas Day aside: weekends, 1 January and
 * 25 December. Other holidays differ by venue.
 */
export function noSessionAnywhere(date: string): boolean {
  const wd = new Date(`${date}T00:00:00Z`).getUTCDay();
  const md = date.slice(5);
  return wd === 0 || wd === 6 || md === "01-01" || md === "12-25";
}

/** Whether a listing's venue may hold a session on a day. */
export type SessionTest = (date: string) => boolean;

/** The test of a listing on no known venue: any day some venue trades. */
export const someVenueTrades: SessionTest = (date) => !noSessionAnywhere(date);

/**
 * The days a listing's venue may trade: its calendar's in the years the calendars hold (so a venue
 * holiday at either end of a window is never asked for, and Tokyo's Christmas Day is); in other
 * years its weekdays but 1 January and 25 December. A listing on no known venue: any venue's day.
 * @example venueSessionTest(VENUES.TSE)("2026-12-25") // true
 */
export function venueSessionTest(venue: Venue | undefined): SessionTest {
  if (!venue) return someVenueTrades;
  return (date) => isTradingDay(venue, date) && (calendarHolds(date) || someVenueTrades(date));
}

/**
 * A range narrowed to its first and last possible session; null when it holds none: asking a
 * provider for a weekend, for Christmas or for the venue's holiday would fetch nothing, every time.
 * @example sessionsOf({from: "2016-11-26", to: "2016-11-27"}) // null (a Saturday and a Sunday)
 */
export function sessionsOf(range: DateRange, trades: SessionTest = someVenueTrades): DateRange | null {
  let { from, to } = range;
  while (from <= to && !trades(from)) from = addDays(from, 1);
  while (to >= from && !trades(to)) to = addDays(to, -1);
  return from <= to ? { from, to } : null;
}

/**
 * The ranges of `wanted` outside the stored range `[first, last]` (before it, after it, or all of it
 * when nothing is stored) that can hold a session. Gaps inside the stored range are not refetched:
 * providers serve every session, so a hole there is a day without trading, not a missed one.
 * @example missingRanges({from: "2015-12-30", to: "2026-11-24"}, {first: "2016-01-04", last: "2026-11-20"})
 *          // [{from: "2015-12-30", to: "2015-12-31"}, {from: "2026-11-23", to: "2026-11-24"}]
 */
export function missingRanges(
  wanted: DateRange,
  stored: { first: string; last: string } | null,
  trades: SessionTest = someVenueTrades,
): DateRange[] {
  if (wanted.from > wanted.to) return [];
  const out: DateRange[] = [];
  if (!stored) out.push({ ...wanted });
  else {
    if (wanted.from < stored.first)
      out.push({ from: wanted.from, to: wanted.to < stored.first ? wanted.to : addDays(stored.first, -1) });
    if (wanted.to > stored.last)
      out.push({ from: wanted.from > stored.last ? wanted.from : addDays(stored.last, 1), to: wanted.to });
  }
  return out.map((r) => sessionsOf(r, trades)).filter((r): r is DateRange => r !== null);
}
