/**
 * The trading venues of the catalogue: each described once, with its calendar (time zone, regular
 * hours, holidays and early closes of each year we know, from the venue's published calendar) and
 * how the providers name it. The calendars live in venue-calendars/, by region.
 * Pure: instants are computed from the date and the venue's time zone, never read from a clock.
 */

import { addDays } from "./instants";
import { AMERICAS } from "./venue-calendars/americas";
import { ASIA_PACIFIC } from "./venue-calendars/asia-pacific";
import { EURONEXT } from "./venue-calendars/euronext";
import { EUROPE } from "./venue-calendars/europe";
import { NORDIC } from "./venue-calendars/nordic";
import type { Venue } from "./venue-calendars/venue";

export type { Venue };

/** The years whose holidays each venue's calendar holds; outside them only weekends are known closed. */
export const CALENDAR_YEARS = ["2026", "2027"] as const;

/** Whether the calendars hold the holidays of `date`'s year. */
export const calendarHolds = (date: string): boolean =>
  (CALENDAR_YEARS as readonly string[]).includes(date.slice(0, 4));

/** Every venue the catalogue lists on, by its catalogue code. */
export const VENUES: Readonly<Record<string, Venue>> = Object.fromEntries(
  [...AMERICAS, ...EURONEXT, ...EUROPE, ...NORDIC, ...ASIA_PACIFIC].map((v) => [v.code, v]),
);

/**
 * Where listings without a known venue are placed: closed only on weekends, 1 January and
 * 25 December (no venue of the catalogue trades on them but Tokyo, open on Christmas Day, whose
 * lines have a venue), closed by 21:00 UTC (the US close in winter), so that they are refreshed
 * with the venues that close last. A ticker without a venue is taken for a US line (as the stream
 * provider's symbol of it says).
 */
export const UNKNOWN_VENUE: Venue = {
  code: "OTHER",
  mic: null,
  name: "Listings without a known venue",
  timeZone: "UTC",
  open: "00:00",
  close: "21:00",
  holidays: { "2026-01-01": "New Year's Day", "2026-12-25": "Christmas Day", "2027-01-01": "New Year's Day" },
  earlyCloses: {},
  source: { name: "weekends, New Year's Day and Christmas Day", url: "", asOf: "2026-11-27" },
  suffix: null,
  delayedExchanges: [],
  delayedExchangeName: "",
  streamExchange: "NASDAQ",
  currency: "USD",
  countries: [],
};

/** The venue of a catalogue exchange code; UNKNOWN_VENUE for a listing without one or on a venue not in VENUES. */
export function venueOf(exchange: string | null): Venue {
  return (exchange && VENUES[exchange.toUpperCase()]) || UNKNOWN_VENUE;
}

/** Weekday of an ISO date, 0 = Sunday. */
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** Why `date` has no session on the venue, or null when it trades. */
export function closedReason(venue: Venue, date: string): string | null {
  const wd = weekday(date);
  if (wd === 0 || wd === 6) return "weekend";
  const holiday = venue.holidays[date];
  return holiday ? `holiday: ${holiday}` : null;
}

/** Whether the venue holds a session on `date` (its local calendar day). */
export const isTradingDay = (venue: Venue, date: string): boolean => closedReason(venue, date) === null;

/** Offset of `timeZone` from UTC at `instant`, in minutes (east positive). */
function offsetMinutes(timeZone: string, instant: number): number {
  const parts = formatter("clock", timeZone).formatToParts(new Date(instant));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const local = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((local - Math.floor(instant / 1000) * 1000) / 60_000);
}

/**
 * The instant of a local wall-clock time on a date in a time zone (the offset read at that instant,
 * so summer and winter time both hold).
 * @example localInstant("2026-07-01", "16:00", "America/New_York").toISOString() // "2026-07-01T20:00:00.000Z"
 */
export function localInstant(date: string, time: string, timeZone: string): Date {
  const guess = Date.parse(`${date}T${time}:00Z`);
  const first = guess - offsetMinutes(timeZone, guess) * 60_000;
  return new Date(guess - offsetMinutes(timeZone, first) * 60_000);
}

/** The venue's calendar date at an instant. */
export function localDate(venue: Venue, at: Date): string {
  const parts = formatter("date", venue.timeZone).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

// A formatter is costly to build (tens of microseconds) and a schedule check asks for thousands:
// one per time zone and use, kept for the isolate's life (two dozen at most). Parts are read by
// type, never from the formatted text, whose layout a locale's data may change.
const FORMATS = {
  clock: {
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  },
  date: { year: "numeric", month: "2-digit", day: "2-digit" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(use: keyof typeof FORMATS, timeZone: string): Intl.DateTimeFormat {
  const key = `${use} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { ...FORMATS[use], timeZone });
    formatters.set(key, f);
  }
  return f;
}

/** The local closing time of a session on `date` (an early close when there is one). */
export const closingTime = (venue: Venue, date: string): string => venue.earlyCloses[date] ?? venue.close;

/** The instant the session of `date` closes. */
export const closeOf = (venue: Venue, date: string): Date =>
  localInstant(date, closingTime(venue, date), venue.timeZone);

/** The instant the session of `date` opens. */
export const openOf = (venue: Venue, date: string): Date => localInstant(date, venue.open, venue.timeZone);

/**
 * The venue's latest session that has closed by `at`: today's once it has closed, else the last
 * trading day before it.
 * @example lastClosedSession(VENUES.XETRA, new Date("2026-12-28T07:00:00Z")) // "2026-12-23"
 */
export function lastClosedSession(venue: Venue, at: Date): string {
  let date = localDate(venue, at);
  if (!(isTradingDay(venue, date) && closeOf(venue, date).getTime() <= at.getTime())) date = previousDay(date);
  while (!isTradingDay(venue, date)) date = previousDay(date);
  return date;
}

/**
 * The session a listing's stored bars miss: its venue's last closed session by `at`, when the last
 * stored bar is older (its refresh is behind), else null.
 */
export function missingSession(exchange: string | null, lastBar: string, at: Date): string | null {
  const expected = lastClosedSession(venueOf(exchange), at);
  return lastBar < expected ? expected : null;
}

const previousDay = (date: string) => addDays(date, -1);
