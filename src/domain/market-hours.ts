import { NotFoundError } from "./errors";
import { addDays, DAY_MS } from "./instants";
import {
  CALENDAR_YEARS,
  calendarHolds,
  closedReason,
  closeOf,
  closingTime,
  isTradingDay,
  localDate,
  openOf,
  VENUES,
  type Venue,
} from "./venues";

/**
 * Whether a venue is trading at an instant, and its next open and close: what `/exchanges` answers.
 * Pure: the instant is an input, and every instant is computed from the venue's calendar and time
 * zone (venues.ts).
 */

/** A venue's day: its session (instants) or why it has none. */
export interface VenueDay {
  date: string;
  trading: boolean;
  /** Why the venue is closed all day (a weekend or a holiday's name); null on a trading day. */
  closedReason: string | null;
  open: Date | null;
  close: Date | null;
  /** The session ends before the regular close (the local closing time is then `close`). */
  earlyClose: boolean;
}

export interface MarketState {
  /** A session is in progress at the instant. */
  isOpen: boolean;
  /** The venue's calendar day at the instant. */
  today: VenueDay;
  /** When the next session opens (the one after the current one, while open). */
  nextOpen: Date;
  /** When the current session closes, or else the next session. */
  nextClose: Date;
}

/** No venue is closed this long in a row; a bound that keeps a search through a calendar finite. */
const MAX_CLOSED_DAYS = 30;

/** The venue's first trading day after `date`. */
export function nextTradingDay(venue: Venue, date: string): string {
  let d = addDays(date, 1);
  for (let i = 0; i < MAX_CLOSED_DAYS && !isTradingDay(venue, d); i++) d = addDays(d, 1);
  return d;
}

/** One calendar day of a venue. */
export function venueDay(venue: Venue, date: string): VenueDay {
  const reason = closedReason(venue, date);
  return {
    date,
    trading: reason === null,
    closedReason: reason,
    open: reason === null ? openOf(venue, date) : null,
    close: reason === null ? closeOf(venue, date) : null,
    earlyClose: reason === null && closingTime(venue, date) !== venue.close,
  };
}

/**
 * The venue at instant `at`: open or not, its day, and its next open and close.
 * @example marketState(VENUES.XETRA, new Date("2026-12-24T10:00:00Z")).isOpen // false: Christmas Eve
 */
export function marketState(venue: Venue, at: Date): MarketState {
  const today = venueDay(venue, localDate(venue, at));
  const t = at.getTime();
  const { open, close } = today;
  if (open && close && open.getTime() <= t && t < close.getTime()) {
    return { isOpen: true, today, nextOpen: openOf(venue, nextTradingDay(venue, today.date)), nextClose: close };
  }
  // Before today's session: it is the next one; after it (or on a closed day): the next trading day's.
  const next = open && close && t < open.getTime() ? today.date : nextTradingDay(venue, today.date);
  return { isOpen: false, today, nextOpen: openOf(venue, next), nextClose: closeOf(venue, next) };
}

/** The venues `/exchanges` lists (the catalogue's, without the placeholder for listings without one). */
export const listedVenues = (): Venue[] => Object.values(VENUES);

/**
 * The catalogue's venue of an exchange code, case and spaces ignored; undefined when there is none
 * (no fallback to the placeholder of listings without a venue: its calendar proves nothing).
 */
export const catalogueVenue = (code: string | null): Venue | undefined =>
  code === null ? undefined : VENUES[code.trim().toUpperCase()];

/** The catalogue's venue of an exchange code a caller named; a 404 naming the known codes when there is none. */
export function requireCatalogueVenue(code: string): Venue {
  const venue = catalogueVenue(code);
  if (venue) return venue;
  const known = listedVenues().map((v) => v.code);
  throw new NotFoundError("Exchange", code, `the catalogue's exchanges are ${known.join(", ")}`);
}

/** The last day the venues' calendars know holidays for; after it only weekends are known closed. */
export const CALENDAR_THROUGH = `${CALENDAR_YEARS[CALENDAR_YEARS.length - 1]}-12-31`;

/**
 * The calendar years a view of the venue covers: its local year at the instant and the next, as far
 * as the calendars hold them.
 */
export function yearsShown(venue: Venue, at: Date): { shown: string[]; missing: string[] } {
  const year = Number(localDate(venue, at).slice(0, 4));
  const wanted = [String(year), String(year + 1)];
  const known: readonly string[] = CALENDAR_YEARS;
  return { shown: wanted.filter((y) => known.includes(y)), missing: wanted.filter((y) => !known.includes(y)) };
}

/**
 * Seconds until any of the states changes (a session opens or closes), at least 1: how long an
 * answer built at `at` stays true.
 */
export function secondsUntilChange(states: readonly MarketState[], at: Date): number {
  const next = Math.min(
    ...states.map((s) => Math.min(s.nextOpen.getTime(), s.nextClose.getTime())),
    at.getTime() + DAY_MS,
  );
  return Math.max(1, Math.floor((next - at.getTime()) / 1000));
}

/** The longest window checked day by day for sessions: any longer one holds a session somewhere. */
const MAX_WINDOW_DAYS = 31;

/**
 * Every day of `from`..`to` with why the venue was closed, when it held no session on any of them
 * (a holiday window: "market closed"); null when it traded on one, or the window is too long to be
 * a closure.
 * @example closedThroughout(VENUES.XETRA, "2026-12-24", "2026-12-27")?.map((d) => d.reason)
 *          // ["holiday: Christmas Eve", "holiday: Christmas Day", "weekend", "weekend"]
 */
export function closedThroughout(venue: Venue, from: string, to: string): { date: string; reason: string }[] | null {
  const days: { date: string; reason: string }[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const reason = closedReason(venue, d);
    if (reason === null || days.length >= MAX_WINDOW_DAYS) return null;
    days.push({ date: d, reason });
  }
  return days.length ? days : null;
}

/** Sessions named in a "missing" answer; the count says how many more. */
const SESSIONS_NAMED = 5;

/**
 * Why a past window with no stored bar is empty, when the venue traded in it: its sessions there
 * (each with its early close), which no provider sent a bar for; null when the calendar shows no
 * session (a closed window says so itself) or the venue is unknown. Days of years the calendar does
 * not hold count as sessions on weekdays, and are said to be unconfirmed.
 * @example missingSessionsReason(VENUES.NASDAQ, "2026-11-27", "2026-11-27")
 *          // "Nasdaq Stock Market held a session on 2026-11-27 (early close at 13:00) and no provider has a bar for it"
 */
export function missingSessionsReason(venue: Venue, from: string, to: string): string | null {
  const sessions: string[] = [];
  let count = 0;
  let unconfirmed = false;
  for (let d = from; d <= to; d = addDays(d, 1)) {
    if (closedReason(venue, d) !== null) continue;
    count++;
    if (!calendarHolds(d)) unconfirmed = true;
    if (sessions.length < SESSIONS_NAMED) {
      const close = closingTime(venue, d);
      sessions.push(close === venue.close ? d : `${d} (early close at ${close})`);
    }
  }
  if (count === 0) return null;
  const more = count > sessions.length ? ` and ${count - sessions.length} more` : "";
  const which = count === 1 ? "a session" : `${count} sessions`;
  return `${venue.name} held ${which} on ${sessions.join(", ")}${more}${
    unconfirmed ? " (weekdays of years its calendar does not hold: holidays unknown)" : ""
  } and no provider has a bar for ${count === 1 ? "it" : "them"}`;
}

/**
 * Whether an instant falls inside one of the venue's sessions (its local trading day, from the open
 * to the close, an early close included): a minute candle outside one is no trade of the venue.
 * @example inSession(VENUES.NASDAQ, new Date("2026-11-28T15:00:00Z")) // false: a Saturday
 */
export function inSession(venue: Venue, at: Date): boolean {
  const { open, close } = venueDay(venue, localDate(venue, at));
  return open !== null && close !== null && open.getTime() <= at.getTime() && at.getTime() < close.getTime();
}
