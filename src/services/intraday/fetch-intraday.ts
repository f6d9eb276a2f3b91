import type { ListingRow } from "../../db/repositories/catalogue";
import { storeIntradayFetch } from "../../db/repositories/intraday";
import {
  coversWholeSession,
  fetchSpan,
  type IntradayFetch,
  PROVIDER_INTERVAL,
  sessionOf,
  underWay,
} from "../../domain/intraday";
import { sessionCandles } from "../../domain/intraday-request";
import { currencyScale } from "../../domain/provider-symbols";
import type { Venue } from "../../domain/venues";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { verifiedDelayedSymbol } from "../eod/verify-symbol";

/** What fetching came to: the provider requests made and why any failed. */
export interface Fetched {
  fetched: number;
  failures: string[];
}
export const NOTHING_FETCHED: Fetched = { fetched: 0, failures: [] };

/** Makes the due requests with the listing's verified symbol; the provider's failures are results, anything else throws. */
export async function fetchAll(
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
    const candles = sessionCandles(history.bars, venue, request.days, scale);
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
