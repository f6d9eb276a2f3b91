import { BadRequestError } from "./errors";
import { addDays, DAY_MS } from "./instants";
import {
  INTERVAL_MINUTES,
  type IntradayCandle,
  type IntradayInterval,
  MOST_WINDOW_DAYS,
  PROVIDER_REACH_DAYS,
  reachStart,
  resampleSession,
  sessionOf,
} from "./intraday";
import { closeOf, isTradingDay, openOf, type Venue } from "./venues";

/**
 * What an intraday request decides without I/O: its window and whether it may span it, which
 * candles of a provider answer belong to the asked sessions (in the listing's currency), how stored
 * candles make the sessions' bars, what the provider keeps, and the warning a failure gives.
 */

/**
 * The window asked for, in the venue's calendar days: both ends given; `from` alone runs to today;
 * `to` alone (or neither) is one session, the last one opened by then. A window may not reach past today.
 */
export function windowOf(
  venue: Venue,
  input: { from?: string; to?: string },
  today: string,
  now: Date,
): { from: string; to: string } {
  if (input.from && input.from > today)
    throw new BadRequestError(`from (${input.from}) is after today (${today}) at ${venue.name}`);
  const to = input.to && input.to < today ? input.to : today;
  if (input.from) return { from: input.from, to };
  let last = to;
  // The last session opened by `to` (a weekend or a holiday looks back to the session before it).
  for (let i = 0; i < 30; i++) {
    if (isTradingDay(venue, last) && openOf(venue, last).getTime() <= now.getTime()) break;
    last = addDays(last, -1);
  }
  return { from: last, to };
}

/** Refuses a window longer than an interval's requests may span. */
export function refuseLongWindow(window: { from: string; to: string }, interval: IntradayInterval): void {
  const days = Math.round((Date.parse(window.to) - Date.parse(window.from)) / DAY_MS) + 1;
  if (days > MOST_WINDOW_DAYS[interval])
    throw new BadRequestError(
      `the window from ${window.from} to ${window.to} spans ${days} days; at ${interval} a request may span ${MOST_WINDOW_DAYS[interval]} days at most`,
    );
}

/** A pence price in pounds, to the 8 places prices are stored with. */
const scaled = (x: number, scale: number) => (scale === 1 ? x : Number((x * scale).toFixed(8)));

/**
 * The candles of a provider answer that belong to the asked sessions, scaled to the listing's
 * currency. A bar at or after its session's close is the provider's closing-price marker, not a bar
 * of the session.
 */
export function sessionCandles<B extends { start: Date; open: number; high: number; low: number; close: number }>(
  bars: readonly B[],
  venue: Venue,
  days: readonly string[],
  scale: number,
): B[] {
  const asked = new Set(days);
  return bars
    .filter((b) => {
      const day = sessionOf(venue, b.start);
      return asked.has(day) && b.start.getTime() < closeOf(venue, day).getTime();
    })
    .map((b) => ({
      ...b,
      open: scaled(b.open, scale),
      high: scaled(b.high, scale),
      low: scaled(b.low, scale),
      close: scaled(b.close, scale),
    }));
}

/** `days` cut where a day of `others` falls between two of them (both ascending). */
export function runsOf(days: readonly string[], others: readonly string[]): string[][] {
  const runs: string[][] = [];
  for (const day of days) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    const split = last !== undefined && others.some((o) => o > last && o < day);
    if (run && !split) run.push(day);
    else runs.push([day]);
  }
  return runs;
}

/** The sessions' bars, oldest first: each session's stored minutes resampled from its open, else the interval's own bars. */
export function sessionBars(
  venue: Venue,
  interval: IntradayInterval,
  stored: { minutes: readonly IntradayCandle[]; own: readonly IntradayCandle[] },
  fromMinutes: readonly string[],
  fromBars: readonly string[],
): IntradayCandle[] {
  const bySession = (candles: readonly IntradayCandle[], wanted: readonly string[]) => {
    const keep = new Set(wanted);
    const out = new Map<string, IntradayCandle[]>();
    for (const c of candles) {
      const day = sessionOf(venue, c.start);
      if (!keep.has(day)) continue;
      const list = out.get(day) ?? [];
      list.push(c);
      out.set(day, list);
    }
    return out;
  };
  const minuteDays = bySession(stored.minutes, fromMinutes);
  const barDays = bySession(stored.own, fromBars);
  const out: IntradayCandle[] = [];
  for (const day of [...fromMinutes, ...fromBars].sort()) {
    const m = minuteDays.get(day);
    if (m) out.push(...resampleSession(m, INTERVAL_MINUTES[interval], openOf(venue, day)));
    else out.push(...(barDays.get(day) ?? []));
  }
  return out;
}

/** What the delayed provider keeps of minutes and of the asked interval, from where, at `now`. */
export const reachOf = (venue: Venue, interval: IntradayInterval, now: Date) =>
  [...new Set<IntradayInterval>(["1m", interval])].map((iv) => ({
    interval: iv,
    days: PROVIDER_REACH_DAYS[iv],
    from: reachStart(venue, iv, now),
  }));

/** Why some sessions may be short, from the provider's failures, or null. */
export const intradayWarning = (failures: readonly string[]): string | null =>
  failures.length
    ? `the delayed provider failed, so sessions it was asked for may be short or missing: ${[...new Set(failures)].join("; ")}`
    : null;
