import type { ListingRow } from "../../db/repositories/catalogue";
import { BadRequestError } from "../../domain/errors";
import { convertPrice, type PairRate } from "../../domain/fx/rates";
import { addDays } from "../../domain/instants";
import { type IntradayCandle, type IntradayFetch, type IntradayInterval, sessionsIn } from "../../domain/intraday";
import { intradayWarning, reachOf, refuseLongWindow, windowOf } from "../../domain/intraday-request";
import { localDate, type Venue, venueOf } from "../../domain/venues";
import type { Context } from "../../platform/context";
import { type ConversionNote, listingDayRates } from "../fx/convert";
import { refuseClosedWindow } from "../shared/closed-window";
import { type ListingQuery, resolveListing } from "../shared/resolve-listing";
import { singleFlight } from "../shared/single-flight";
import { type Fetched, fetchAll, NOTHING_FETCHED } from "./fetch-intraday";
import { pendingFetches, readSessions } from "./gather-intraday";

export interface IntradayQuery extends ListingQuery {
  interval: IntradayInterval;
  from?: string;
  to?: string;
  /** Answer in this currency: each session's bars at the session day's rate (services/fx/convert). */
  convert?: string;
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
  /** With convert: each bar's rate (its session day's) and what the answer says of the conversion. */
  fx: { rates: PairRate[]; conversion: ConversionNote } | null;
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
  refuseLongWindow(window, interval);
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
  const read = await readSessions(ctx, listing.id, venue, interval, plan.fromMinutes, plan.fromBars);
  const { bars, fx } = input.convert
    ? await converted(ctx, listing, venue, read, input.convert)
    : { bars: read, fx: null };
  const reach: IntradayReach[] = reachOf(venue, interval, now);
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
    warning: intradayWarning(failures),
    fx,
  };
}

/**
 * A window's bars in another currency: every bar of a session at the session day's rate (as that
 * day's daily bar), prices × rate rounded half to even to 6 decimals, volumes unchanged; the bars
 * of a session without a rate are left out (said in the notes).
 */
async function converted(
  ctx: Context,
  listing: ListingRow,
  venue: Venue,
  bars: readonly IntradayCandle[],
  to: string,
): Promise<{ bars: IntradayCandle[]; fx: IntradayHistoryAnswer["fx"] }> {
  const dayOf = (b: IntradayCandle) => localDate(venue, b.start);
  const { rates, conversion } = await listingDayRates(ctx, listing, bars.map(dayOf), to);
  const out: IntradayCandle[] = [];
  const used: PairRate[] = [];
  for (const b of bars) {
    const r = rates.get(dayOf(b));
    if (!r) continue;
    const c = (x: number) => convertPrice(x, r.rate);
    out.push({ ...b, open: c(b.open), high: c(b.high), low: c(b.low), close: c(b.close) });
    used.push(r);
  }
  return { bars: out, fx: { rates: used, conversion } };
}
