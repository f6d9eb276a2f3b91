/**
 * Intraday history: which sessions of a window are read from which stored candles, which must be
 * fetched from the delayed provider first (within the history it keeps for each interval), and how
 * 1-minute candles become 5-, 15- and 60-minute bars. Pure: the instant and the stored coverage are
 * inputs.
 */
import { addDays } from "./instants";
import { closeOf, isTradingDay, localDate, openOf, type Venue } from "./venues";

export const INTRADAY_INTERVALS = ["1m", "5m", "15m", "1h"] as const;
export type IntradayInterval = (typeof INTRADAY_INTERVALS)[number];

/** Minutes in a bar of each interval. */
export const INTERVAL_MINUTES: Readonly<Record<IntradayInterval, number>> = { "1m": 1, "5m": 5, "15m": 15, "1h": 60 };

/** The delayed provider's name of each interval (it calls an hour 60m). */
export const PROVIDER_INTERVAL: Readonly<Record<IntradayInterval, string>> = {
  "1m": "1m",
  "5m": "5m",
  "15m": "15m",
  "1h": "60m",
};

/**
 * The history the delayed provider keeps of each interval, in days back from now (it refuses an
 * older start with HTTP 422), and the most days of it one request may span (1m: 8).
 */
export const PROVIDER_REACH_DAYS: Readonly<Record<IntradayInterval, number>> = {
  "1m": 30,
  "5m": 60,
  "15m": 60,
  "1h": 730,
};
const MOST_DAYS_PER_REQUEST: Readonly<Record<IntradayInterval, number>> = { "1m": 8, "5m": 60, "15m": 60, "1h": 730 };

/**
 * The widest window one request may ask for, in calendar days: a month of minutes (about 8,600
 * candles of a US share), a quarter of 5- or 15-minute bars, two years of hours.
 */
export const MOST_WINDOW_DAYS: Readonly<Record<IntradayInterval, number>> = {
  "1m": 31,
  "5m": 92,
  "15m": 92,
  "1h": 731,
};

/**
 * How long after a session's close its candles are final: the provider's intraday bars come up to
 * 20 minutes late on some venues, and late prints settle. A fetch after that covers the day for good.
 */
export const INTRADAY_SETTLE_MS = 60 * 60_000;

/** A stored candle or bar: `start` is the first minute it covers. */
export interface IntradayCandle {
  start: Date;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** Where its minutes came from: a provider name, or several joined by "+" (sorted). */
  source: string;
}

/**
 * The first day whose session the provider still serves at `interval` at instant `now`: a day
 * short of its reach, so a request's start (the session's open) is inside it whatever the time.
 * @example reachStart(VENUES.NASDAQ, "1m", new Date("2026-11-27T15:00:00Z")) // "2026-10-29"
 */
export function reachStart(venue: Venue, interval: IntradayInterval, now: Date): string {
  return addDays(localDate(venue, now), -(PROVIDER_REACH_DAYS[interval] - 1));
}

/** The venue's sessions from `from` through `to` that have opened by `now`, oldest first. */
export function sessionsIn(venue: Venue, from: string, to: string, now: Date): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    if (isTradingDay(venue, d) && openOf(venue, d).getTime() <= now.getTime()) out.push(d);
  }
  return out;
}

/** Whether a fetch made at `fetchedAt` holds the whole session of `day`. */
export const coversWholeSession = (venue: Venue, day: string, fetchedAt: Date): boolean =>
  fetchedAt.getTime() >= closeOf(venue, day).getTime() + INTRADAY_SETTLE_MS;

/** Whether every session of a request is still under way (or settling): its answer may change within the minute. */
export const underWay = (venue: Venue, days: readonly string[], at: Date): boolean =>
  days.every((d) => !coversWholeSession(venue, d, at));

/** One request to the delayed provider: an interval over consecutive sessions. */
export interface IntradayFetch {
  interval: IntradayInterval;
  days: string[];
}

/** Which stored candles each session is read from, and what must be fetched first. */
export interface IntradayPlan {
  /** Sessions read from 1-minute candles (resampled to the interval). */
  fromMinutes: string[];
  /** Sessions read from bars the provider gave at the interval itself (older than its minutes reach). */
  fromBars: string[];
  /** Provider requests to make first, each within its interval's reach and per-request span. */
  fetches: IntradayFetch[];
  /** Sessions beyond every reach and never fetched: only candles the stream stored can show. */
  beyond: string[];
}

/**
 * The plan for a window's sessions at `interval`. `covered` holds `"{interval}|{day}"` for each
 * session whose whole day is stored at that interval (1m: minute candles; else the interval's own
 * bars). A session is read from its minutes when they are stored whole or still within the minute
 * reach (fetched first); else from the interval's own bars when stored whole or within their reach
 * (fetched first); else it is beyond reach. Minutes win over coarser bars: resampled they are the
 * same bars, and a window then reads one kind of candle where it can.
 */
export function planIntraday(input: {
  venue: Venue;
  interval: IntradayInterval;
  sessions: readonly string[];
  covered: ReadonlySet<string>;
  now: Date;
}): IntradayPlan {
  const { venue, interval, sessions, covered, now } = input;
  const plan: IntradayPlan = { fromMinutes: [], fromBars: [], fetches: [], beyond: [] };
  const minutesFrom = reachStart(venue, "1m", now);
  const barsFrom = reachStart(venue, interval, now);
  const fetchMinutes: string[] = [];
  const fetchBars: string[] = [];
  for (const day of sessions) {
    if (covered.has(`1m|${day}`)) plan.fromMinutes.push(day);
    else if (day >= minutesFrom) {
      plan.fromMinutes.push(day);
      fetchMinutes.push(day);
    } else if (interval !== "1m" && covered.has(`${interval}|${day}`)) plan.fromBars.push(day);
    else if (interval !== "1m" && day >= barsFrom) {
      plan.fromBars.push(day);
      fetchBars.push(day);
    } else {
      plan.fromMinutes.push(day);
      plan.beyond.push(day);
    }
  }
  plan.fetches.push(...spans(fetchBars, interval), ...spans(fetchMinutes, "1m"));
  return plan;
}

/** Sessions cut into requests whose first and last day lie less than the interval's per-request span apart. */
function spans(days: readonly string[], interval: IntradayInterval): IntradayFetch[] {
  const out: IntradayFetch[] = [];
  const most = MOST_DAYS_PER_REQUEST[interval];
  let cur: string[] = [];
  for (const day of days) {
    const first = cur[0];
    if (first !== undefined && day > addDays(first, most - 2)) {
      out.push({ interval, days: cur });
      cur = [];
    }
    cur.push(day);
  }
  if (cur.length) out.push({ interval, days: cur });
  return out;
}

/** The instants a request for consecutive sessions spans: from the first open to just after the last close. */
export function fetchSpan(venue: Venue, days: readonly string[]): { start: Date; end: Date } {
  const first = days[0] as string;
  const last = days[days.length - 1] as string;
  return { start: openOf(venue, first), end: new Date(closeOf(venue, last).getTime() + 60_000) };
}

/**
 * Candles of one session aggregated into bars of `minutes`, buckets counted from the session's
 * open (a US hour runs 9:30–10:30, as the provider's own 60m bars do): open of the first candle,
 * highest high, lowest low, close of the last, summed volume, dated by the bucket's start (the
 * provider dates its intraday bars so; weekly and monthly bars take the same values). Candles
 * before the open (an early print) fall in the first bucket. Ascending candles in, ascending bars out.
 */
export function resampleSession(candles: readonly IntradayCandle[], minutes: number, open: Date): IntradayCandle[] {
  if (minutes === 1) return candles.map((c) => ({ ...c }));
  const width = minutes * 60_000;
  const out: IntradayCandle[] = [];
  const sources: Set<string>[] = [];
  for (const c of candles) {
    const k = Math.max(0, Math.floor((c.start.getTime() - open.getTime()) / width));
    const start = open.getTime() + k * width;
    const cur = out.at(-1);
    if (cur && cur.start.getTime() === start) {
      if (c.high > cur.high) cur.high = c.high;
      if (c.low < cur.low) cur.low = c.low;
      cur.close = c.close;
      cur.volume += c.volume;
      sources.at(-1)?.add(c.source);
    } else {
      out.push({ ...c, start: new Date(start) });
      sources.push(new Set([c.source]));
    }
  }
  out.forEach((bar, i) => {
    bar.source = [...(sources[i] ?? [])].sort().join("+");
  });
  return out;
}

/** The session a candle belongs to: its venue-local calendar day. */
export const sessionOf = (venue: Venue, start: Date): string => localDate(venue, start);
