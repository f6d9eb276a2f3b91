import type { ListingRow } from "../../db/repositories/catalogue";
import { readAdjustmentCheck } from "../../db/repositories/corporate-actions";
import { listingSpans } from "../../db/repositories/listing-prices";
import type { ListingPrices, StoredSpan } from "../../db/repositories/prices";
import { type Bar, scaleBars } from "../../domain/bars";
import type { Dividend, Split } from "../../domain/corporate-actions";
import {
  RETRY_SAME_DISAGREEMENT_SECONDS,
  RETRY_UNCHECKED_SECONDS,
  readjustState,
  spanOf,
} from "../../domain/ingest-decisions";
import { type DateRange, missingRanges, type SessionTest, venueSessionTest } from "../../domain/ingest-plan";
import { catalogueVenue } from "../../domain/market-hours";
import { STREAM } from "../../domain/provider-names";
import { currencyScale } from "../../domain/provider-symbols";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import type { HistoryProvider } from "../../providers/history";

/**
 * What an ingestion reads before it writes: the plan (what is missing of the wanted window, from the
 * stored spans and the ranges lately answered empty), what to ask the delayed provider, and the
 * providers' bars and events in the listing's currency.
 */

export interface Fetched {
  bars: Bar[];
  dividends: Dividend[];
  splits: Split[];
  capitalGains: Dividend[];
}

/** Fetches `ranges` from one provider, in the listing's currency (dividends too); throws a ProviderError. */
export async function fetchFrom(
  provider: HistoryProvider,
  symbol: string,
  listing: ListingRow,
  ranges: readonly DateRange[],
): Promise<Fetched> {
  const out: Fetched = { bars: [], dividends: [], splits: [], capitalGains: [] };
  for (const r of ranges) {
    const history = await provider.dailyHistory(symbol, r.from, r.to);
    const scale = currencyScale(history.currency, listing.currency);
    if (scale === null)
      throw new ProviderError(
        provider.name,
        "bad_response",
        `${symbol} is quoted in ${history.currency ?? "an unknown currency"}, the listing in ${listing.currency}`,
      );
    out.bars.push(...scaleBars(history.bars, scale));
    out.dividends.push(
      ...(history.events?.dividends ?? []).map((d) => ({ ...d, amount: scaleAmount(d.amount, scale) })),
    );
    out.splits.push(...(history.events?.splits ?? []));
    out.capitalGains.push(
      ...(history.events?.capitalGains ?? []).map((d) => ({ ...d, amount: scaleAmount(d.amount, scale) })),
    );
  }
  return out;
}

export interface Plan {
  wanted: DateRange;
  requested: DateRange[];
  replaced: DateRange[];
  /** The listing's stored span when the plan was made (null: nothing stored). */
  stored: StoredSpan | null;
}

/** The days the listing's venue may trade, on the calendar the refresh runs on (venueSessionTest). */
export const sessionTestOf = (listing: ListingRow): SessionTest => venueSessionTest(catalogueVenue(listing.exchange));

/** A listing's stored span and the span of its stream-sourced bars (`sourced`), as a caller has just read them. */
export type KnownSpans = Pick<ListingPrices, "stored" | "sourced">;

/**
 * What is missing of `wanted` (less the ranges lately answered empty), and the span of
 * stream-sourced bars to replace; from `known` spans when the caller has them (no round trip).
 */
export async function planOf(ctx: Context, listing: ListingRow, wanted: DateRange, known?: KnownSpans): Promise<Plan> {
  const { stored, sourced: streamed } = known ?? (await listingSpans(ctx.db, listing.id, STREAM));
  const missing = missingRanges(wanted, stored, sessionTestOf(listing));
  const answeredEmpty = await Promise.all(
    missing.map((r) => ctx.cache.get<boolean>(cacheKeys.emptyRange(listing.id, r.from, r.to))),
  );
  return {
    wanted,
    stored,
    requested: missing.filter((_, i) => answeredEmpty[i] === null),
    replaced: streamed ? [streamed] : [],
  };
}

export const NOTHING: Fetched = { bars: [], dividends: [], splits: [], capitalGains: [] };

/** A dividend in the listing's currency (a pence line's amounts scale as its prices, to 8 places as stored). */
const scaleAmount = (amount: number, scale: number) => (scale === 1 ? amount : Number((amount * scale).toFixed(8)));

/**
 * What to ask the delayed provider: the missing and replaced windows; and, with them in one call,
 * the whole stored span of a listing whose adjusted closes are not known to agree with its events:
 * never checked (its prices were stored before events were), found disagreeing (a readjustment
 * that failed, a provider that corrected its history), or stored rounded to the price hint (before
 * the service kept the provider's precision). Each such state is asked about once, then
 * again only after its retry time (the cache remembers which state was last asked about; a cache
 * that cannot answer lets the request through).
 */
export async function delayedRanges(
  ctx: Context,
  listing: ListingRow,
  plan: Plan,
): Promise<{ ranges: DateRange[]; wholeSpan: boolean }> {
  const ranges = [...plan.requested, ...plan.replaced];
  const asPlanned = { ranges, wholeSpan: false };
  if (!plan.stored || ranges.length === 0) return asPlanned;
  const check = await readAdjustmentCheck(ctx.db, listing.id);
  const state = readjustState(check);
  if (state === null) return asPlanned;
  const key = cacheKeys.readjustTried(listing.id);
  if ((await ctx.cache.get<string>(key)) === state) return asPlanned;
  await ctx.cache.set(key, state, check === null ? RETRY_UNCHECKED_SECONDS : RETRY_SAME_DISAGREEMENT_SECONDS);
  return { ranges: [spanOf([...ranges, { from: plan.stored.first, to: plan.stored.last }])], wholeSpan: true };
}
