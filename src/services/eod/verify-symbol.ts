import { type ListingRow, recordDelayedSymbol } from "../../db/repositories/catalogue";
import { addDays, DAY_MS } from "../../domain/instants";
import { currencyScale, isVenueOf } from "../../domain/provider-symbols";
import type { Context } from "../../platform/context";
import type { SearchHit } from "../../providers/delayed/search";
import { ProviderError } from "../../providers/errors";

/** `transient`: the answer may change on a retry soon (a candidate the search listed was refused by its chart). */
export type SymbolVerdict = { symbol: string } | { symbol: null; reason: string; transient: boolean };

/** A listing found without a symbol is searched again after a day: catalogues and providers change. */
const RECHECK_AFTER_MS = DAY_MS;
/** Charts fetched at most per verification: each candidate costs a provider call. */
const MAX_CANDIDATES = 3;

/** Search hits that may be the listing: on its venue, its own ticker first. */
function candidates(hits: readonly SearchHit[], listing: ListingRow): string[] {
  const onVenue = hits.filter((h) => isVenueOf(h.exchange, listing.exchange));
  onVenue.sort((a, b) => Number(b.symbol === listing.ticker) - Number(a.symbol === listing.ticker));
  return [...new Set(onVenue.map((h) => h.symbol))].slice(0, MAX_CANDIDATES);
}

/**
 * The first candidate the provider quotes in the listing's currency (pence count for pounds).
 * `conclusive` is false when a candidate the search had just listed answered "unknown symbol": the
 * provider contradicts itself, so that "no" must not be remembered.
 */
async function firstInCurrency(
  ctx: Context,
  symbols: readonly string[],
  listing: ListingRow,
  today: string,
): Promise<{ symbol: string | null; conclusive: boolean }> {
  let conclusive = true;
  for (const symbol of symbols) {
    try {
      const probe = await ctx.providers.delayed.dailyHistory(symbol, addDays(today, -3), today);
      if (currencyScale(probe.currency, listing.currency) !== null) return { symbol, conclusive: true };
    } catch (err) {
      if (!(err instanceof ProviderError && err.failure === "not_found")) throw err;
      conclusive = false;
    }
  }
  return { symbol: null, conclusive };
}

/**
 * The delayed-provider symbol of a listing (spec /eod rule 2): searched by ISIN, then by name
 * (identifier search often misses UCITS funds), kept only when on the listing's venue and quoted
 * in its currency, and stored on the listing. A listing without one is never queried with its bare
 * ticker: another venue's line under the same ticker would be served as this one.
 * Provider failures propagate (nothing is recorded); a definite "none" is recorded and retried
 * after a day, an inconclusive one is not recorded at all.
 */
export async function verifiedDelayedSymbol({
  ctx,
  input,
}: {
  ctx: Context;
  input: { listing: ListingRow; today: string };
}): Promise<SymbolVerdict> {
  const { listing, today } = input;
  if (listing.delayedSymbol) return { symbol: listing.delayedSymbol };
  const noneFound = `the delayed provider has no symbol of ${listing.isin} on ${listing.exchange ?? "an unknown exchange"} quoted in ${listing.currency}`;
  const checkedAt = listing.delayedSymbolCheckedAt?.getTime();
  if (checkedAt !== undefined && ctx.clock.now().getTime() - checkedAt < RECHECK_AFTER_MS)
    return { symbol: null, reason: noneFound, transient: false };

  const byIsin = await firstInCurrency(
    ctx,
    candidates(await ctx.providers.delayed.search(listing.isin), listing),
    listing,
    today,
  );
  const found = byIsin.symbol
    ? byIsin
    : await firstInCurrency(ctx, candidates(await ctx.providers.delayed.search(listing.name), listing), listing, today);
  if (found.symbol) {
    await recordDelayedSymbol(ctx.db, listing.id, found.symbol, ctx.clock.now());
    return { symbol: found.symbol };
  }
  const conclusive = byIsin.conclusive && found.conclusive;
  if (conclusive) await recordDelayedSymbol(ctx.db, listing.id, null, ctx.clock.now());
  return {
    symbol: null,
    reason: conclusive
      ? noneFound
      : `${noneFound} (the provider refused a symbol its own search listed; asked again next time)`,
    transient: !conclusive,
  };
}
