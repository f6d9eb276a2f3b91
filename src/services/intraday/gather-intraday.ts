import { readIntervalBars, readIntradayCoverage, readMinuteCandles } from "../../db/repositories/intraday";
import {
  type IntradayCandle,
  type IntradayFetch,
  type IntradayInterval,
  type IntradayPlan,
  planIntraday,
  underWay,
} from "../../domain/intraday";
import { runsOf, sessionBars } from "../../domain/intraday-request";
import { closeOf, openOf, type Venue } from "../../domain/venues";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";

/**
 * The plan of the sessions on what is stored now, and the requests still due: a session under way
 * fetched within the minute is read as stored (a widget refreshing every minute, or many users at
 * once, cost the provider one request a minute per listing and interval).
 */
export async function pendingFetches(
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

/** The stored bars of the sessions, oldest first: minutes resampled per session, or the interval's own bars. */
export async function readSessions(
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
  return sessionBars(venue, interval, { minutes: minuteReads.flat(), own }, fromMinutes, fromBars);
}
