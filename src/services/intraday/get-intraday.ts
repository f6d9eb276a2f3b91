import type { ListingRow } from "../../db/repositories/catalogue";
import {
  readIntervalBars,
  readIntradayCoverage,
  readMinuteCandles,
  storeIntradayFetch,
} from "../../db/repositories/intraday";
import { BadRequestError } from "../../domain/errors";
import { addDays, DAY_MS } from "../../domain/instants";
import {
  coversWholeSession,
  fetchSpan,
  INTERVAL_MINUTES,
  type IntradayCandle,
  type IntradayFetch,
  type IntradayInterval,
  type IntradayPlan,
  MOST_WINDOW_DAYS,
  PROVIDER_INTERVAL,
  PROVIDER_REACH_DAYS,
  planIntraday,
  reachStart,
  resampleSession,
  sessionOf,
  sessionsIn,
  underWay,
} from "../../domain/intraday";
import { currencyScale } from "../../domain/provider-symbols";
import { closeOf, isTradingDay, localDate, openOf, type Venue, venueOf } from "../../domain/venues";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { verifiedDelayedSymbol } from "../eod/verify-symbol";
import { refuseClosedWindow } from "../shared/closed-window";
import { type ListingQuery, resolveListing } from "../shared/resolve-listing";
import { singleFlight } from "../shared/single-flight";

export interface IntradayQuery extends ListingQuery {
  interval: IntradayInterval;
  from?: string;
  to?: string;
}

/** What the delayed provider keeps of the asked interval and of minutes, from where, at the time of the answer. */
export interface IntradayReach {
  interval: IntradayInterval;
  days: number;
  from: string;
}

export interface IntradayHistoryAnswer {
  listing: ListingRow;
  venue: Venue;
  interval: IntradayInterval;
  window: { from: string; to: string };
  /** The venue's calendar day at the time of the answer. */
  today: string;
  /** The venue's sessions of the window that had opened. */
  sessions: string[];
  bars: IntradayCandle[];
  /** The provider's history of minutes, and of the interval's own bars (1m: the same). */
  reach: IntradayReach[];
  /** Sessions older than every reach and never fetched while they were within it. */
  beyond: string[];
  /** Provider requests this answer made. */
  fetched: number;
  /** Why some sessions may be short (the provider failed), or none. */
  warning: string | null;
}

/**
 * A listing's intraday bars (spec-free route, EODHD's /intraday): the window's sessions at the
 * venue, each read from the stored 1-minute candles (the stream's, else the delayed provider's,
 * fetched first while it keeps them) resampled to the interval from the session's open, or, for a
 * session older than the provider's minutes, from the interval's own bars it keeps longer. A
 * session fetched after its close is stored for good and never asked for again; a failing provider
 * costs its sessions, never the answer.
 */
export async function getIntraday({
  ctx,
  input,
}: {
  ctx: Context;
  input: IntradayQuery;
}): Promise<IntradayHistoryAnswer> {
  const { interval } = input;
  if (input.from && input.to && input.from > input.to)
    throw new BadRequestError(`from (${input.from}) is after to (${input.to})`);
  const listing = await resolveListing({ ctx, input });
  const venue = venueOf(listing.exchange);
  const now = ctx.clock.now();
  const today = localDate(venue, now);
  const window = windowOf(venue, input, today, now);
  const days = Math.round((Date.parse(window.to) - Date.parse(window.from)) / DAY_MS) + 1;
  if (days > MOST_WINDOW_DAYS[interval])
    throw new BadRequestError(
      `the window from ${window.from} to ${window.to} spans ${days} days; at ${interval} a request may span ${MOST_WINDOW_DAYS[interval]} days at most`,
    );
  const sessions = sessionsIn(venue, window.from, window.to, now);
  // Today counts as past here: a holiday today has no session all day.
  if (sessions.length === 0) refuseClosedWindow(listing, window, addDays(today, 1));

  const first = await pendingFetches(ctx, listing.id, venue, interval, sessions, now);
  const { plan } = first;
  // Concurrent requests for a listing share one fetch (the others wait, then find it stored), so
  // every answer is the one a request in sequence would give.
  let known: IntradayFetch[] | null = first.due;
  const outcome: Fetched = first.due.length
    ? await singleFlight(
        ctx,
        listing.id,
        {
          isDone: async () => {
            const due = known ?? (await pendingFetches(ctx, listing.id, venue, interval, sessions, now)).due;
            known = null;
            return due.length ? null : NOTHING_FETCHED;
          },
          run: async () =>
            fetchAll(
              ctx,
              listing,
              venue,
              today,
              (await pendingFetches(ctx, listing.id, venue, interval, sessions, now)).due,
            ),
          answers: () => false,
        },
        "intraday",
      )
    : NOTHING_FETCHED;
  const { fetched, failures } = outcome;
  const bars = await readSessions(ctx, listing.id, venue, interval, plan.fromMinutes, plan.fromBars);
  const reach: IntradayReach[] = [...new Set<IntradayInterval>(["1m", interval])].map((iv) => ({
    interval: iv,
    days: PROVIDER_REACH_DAYS[iv],
    from: reachStart(venue, iv, now),
  }));
  return {
    listing,
    venue,
    interval,
    window,
    today,
    sessions,
    bars,
    reach,
    beyond: plan.beyond,
    fetched,
    warning: failures.length
      ? `the delayed provider failed, so sessions it was asked for may be short or missing: ${[...new Set(failures)].join("; ")}`
      : null,
  };
}

/** What fetching came to: the provider requests made and why any failed. */
interface Fetched {
  fetched: number;
  failures: string[];
}
const NOTHING_FETCHED: Fetched = { fetched: 0, failures: [] };

/**
 * The plan of the sessions on what is stored now, and the requests still due: a session under way
 * fetched within the minute is read as stored (a widget refreshing every minute, or many users at
 * once, cost the provider one request a minute per listing and interval).
 */
async function pendingFetches(
  ctx: Context,
  listingId: number,
  venue: Venue,
  interval: IntradayInterval,
  sessions: readonly string[],
  now: Date,
): Promise<{ plan: IntradayPlan; due: IntradayFetch[] }> {
  const covered = await readIntradayCoverage(ctx.db, listingId, sessions);
  const plan = planIntraday({ venue, interval, sessions, covered, now });
  const fresh = await Promise.all(
    plan.fetches.map(async (f) =>
      underWay(venue, f.days, now)
        ? (await ctx.cache.get<boolean>(cacheKeys.intradayFetched(listingId, f.interval, f.days.at(-1) as string))) ===
          true
        : false,
    ),
  );
  return { plan, due: plan.fetches.filter((_, i) => !fresh[i]) };
}

/** Makes the due requests with the listing's verified symbol; the provider's failures are results, anything else throws. */
async function fetchAll(
  ctx: Context,
  listing: ListingRow,
  venue: Venue,
  today: string,
  due: readonly IntradayFetch[],
): Promise<Fetched> {
  const out: Fetched = { fetched: 0, failures: [] };
  if (due.length === 0) return out;
  try {
    const verdict = await verifiedDelayedSymbol({ ctx, input: { listing, today } });
    if (verdict.symbol === null) out.failures.push(verdict.reason);
    else
      for (const request of due) {
        out.fetched++;
        const failure = await fetchAndStore(ctx, listing, venue, verdict.symbol, request);
        if (failure) out.failures.push(failure);
      }
  } catch (err) {
    // The provider's failures cost their sessions; anything else (the database) is the answer's.
    if (!(err instanceof ProviderError)) throw err;
    out.failures.push(err.detail);
  }
  return out;
}

/**
 * The window asked for, in the venue's calendar days: both ends given; `from` alone runs to today;
 * `to` alone (or neither) is one session, the last one opened by then. A window may not reach past today.
 */
function windowOf(venue: Venue, input: IntradayQuery, today: string, now: Date): { from: string; to: string } {
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

/** Asks the provider for one span of sessions and stores what it gave; answers why it failed, or null. */
async function fetchAndStore(
  ctx: Context,
  listing: ListingRow,
  venue: Venue,
  symbol: string,
  request: IntradayFetch,
): Promise<string | null> {
  const { start, end } = fetchSpan(venue, request.days);
  const provider = ctx.providers.delayed;
  try {
    const history = await provider.intradayHistory(symbol, PROVIDER_INTERVAL[request.interval], start, end);
    const scale = currencyScale(history.currency, listing.currency);
    if (scale === null)
      return `${symbol} is quoted in ${history.currency ?? "an unknown currency"}, the listing in ${listing.currency}`;
    const asked = new Set(request.days);
    // A bar at or after its session's close is the provider's closing-price marker, not a bar of the session.
    const candles = history.bars
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
    const at = ctx.clock.now();
    // A day is stored whole only when settled and answered: an empty day (a halt, a holiday the
    // calendar does not know) is asked again next time rather than recorded as nothing.
    const answered = new Set(candles.map((c) => sessionOf(venue, c.start)));
    await storeIntradayFetch(ctx.db, listing.id, {
      interval: request.interval,
      candles,
      source: provider.name,
      wholeDays: request.days.filter((d) => answered.has(d) && coversWholeSession(venue, d, at)),
      at,
    });
    if (underWay(venue, request.days, at))
      await ctx.cache.set(
        cacheKeys.intradayFetched(listing.id, request.interval, request.days.at(-1) as string),
        true,
        FETCHED_TTL_S,
      );
    return null;
  } catch (err) {
    if (err instanceof ProviderError) return err.detail;
    throw err;
  }
}

/** How long a session under way is read as stored after a fetch. */
const FETCHED_TTL_S = 60;

/** A pence price in pounds, to the 8 places prices are stored with. */
const scaled = (x: number, scale: number) => (scale === 1 ? x : Number((x * scale).toFixed(8)));

/** `days` cut where a day of `others` falls between two of them (both ascending). */
function runsOf(days: readonly string[], others: readonly string[]): string[][] {
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

/** The stored bars of the sessions, oldest first: minutes resampled per session, or the interval's own bars. */
async function readSessions(
  ctx: Context,
  listingId: number,
  venue: Venue,
  interval: IntradayInterval,
  fromMinutes: readonly string[],
  fromBars: readonly string[],
): Promise<IntradayCandle[]> {
  const spanOf = (days: readonly string[]) => ({
    start: openOf(venue, days[0] as string),
    end: closeOf(venue, days[days.length - 1] as string),
  });
  // One read per run of consecutive minute sessions: a long window whose middle is read from the
  // coarser bars does not bring every stored minute between its two ends.
  const minuteRuns = runsOf(fromMinutes, fromBars);
  const [minuteReads, own] = await Promise.all([
    Promise.all(minuteRuns.map((run) => readMinuteCandles(ctx.db, listingId, spanOf(run).start, spanOf(run).end))),
    fromBars.length && interval !== "1m"
      ? readIntervalBars(ctx.db, listingId, interval, spanOf(fromBars).start, spanOf(fromBars).end)
      : [],
  ]);
  const minutes = minuteReads.flat();
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
  const minuteDays = bySession(minutes, fromMinutes);
  const barDays = bySession(own, fromBars);
  const out: IntradayCandle[] = [];
  for (const day of [...fromMinutes, ...fromBars].sort()) {
    const m = minuteDays.get(day);
    if (m) out.push(...resampleSession(m, INTERVAL_MINUTES[interval], openOf(venue, day)));
    else out.push(...(barDays.get(day) ?? []));
  }
  return out;
}
