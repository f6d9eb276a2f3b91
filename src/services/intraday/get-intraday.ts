import type { ListingRow } from "../../db/repositories/catalogue";
import { BadRequestError } from "../../domain/errors";
import { addDays } from "../../domain/instants";
import { type IntradayCandle, type IntradayFetch, type IntradayInterval, sessionsIn } from "../../domain/intraday";
import { intradayWarning, reachOf, refuseLongWindow, windowOf } from "../../domain/intraday-request";
import { localDate, type Venue, venueOf } from "../../domain/venues";
import type { Context } from "../../platform/context";
import { refuseClosedWindow } from "../shared/closed-window";
import { type ListingQuery, resolveListing } from "../shared/resolve-listing";
import { singleFlight } from "../shared/single-flight";
import { type Fetched, fetchAll, NOTHING_FETCHED } from "./fetch-intraday";
import { pendingFetches, readSessions } from "./gather-intraday";

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
  const bars = await readSessions(ctx, listing.id, venue, interval, plan.fromMinutes, plan.fromBars);
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
  };
}
