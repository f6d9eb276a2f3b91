import { findActiveListings } from "../../db/repositories/catalogue";
import type { FundDetails } from "../../domain/fundamentals/delayed-figures";
import type { Verdict } from "../../domain/fundamentals/validation";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { verifiedDelayedSymbol } from "../eod/verify-symbol";
import type { Instrument } from "../shared/resolve-instrument";
import type { DelayedFundamentals } from "./delayed-fetch";
import { enrichInstrument } from "./enrich";

/** What asking the delayed provider for an instrument's fundamentals came to. */
export type Refresh =
  | { status: "ok"; symbol: string; fetched: DelayedFundamentals; verdicts: Verdict[]; fund: FundDetails | null }
  /** No verified symbol: the provider is not asked (spec /fundamental rule 3). */
  | { status: "not_queried"; reason: string }
  /** `symbol` null: the failure came while verifying the symbol. */
  | { status: "error"; symbol: string | null; error: ProviderError };

/**
 * The one path from an instrument to its stored fundamentals: the listing's verified symbol (never
 * the bare ticker), then the deep enrichment (fetched, validated, stored). Provider failures are
 * results, not exceptions: every caller answers with what is stored and says why.
 */
export async function refreshFromDelayed(ctx: Context, instrument: Instrument): Promise<Refresh> {
  let symbol: string | null = null;
  try {
    const verdict = await verifiedDelayedSymbol({
      ctx,
      input: { listing: instrument.listing, today: ctx.clock.today() },
    });
    if (verdict.symbol === null) return { status: "not_queried", reason: verdict.reason };
    symbol = verdict.symbol;
    const { fetched, verdicts, fund } = await enrichInstrument(ctx, instrument, symbol);
    // Valuations of every listing of the instrument were computed from the figures just replaced.
    const siblings = await findActiveListings(ctx.db, { isin: instrument.listing.isin });
    for (const t of new Set([instrument.listing.ticker, ...siblings.map((l) => l.ticker)]))
      await ctx.cache.deletePattern(cacheKeys.dcfOfTicker(t));
    return { status: "ok", symbol, fetched, verdicts, fund };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    return { status: "error", symbol, error: err };
  }
}

/** Why nothing was fetched, for a document answered from the database. */
export function noteOf(r: Exclude<Refresh, { status: "ok" }>, what = "the stored figures are shown"): string {
  if (r.status === "not_queried") return `nothing fetched: no verified delayed-provider symbol (${r.reason}); ${what}`;
  if (r.symbol === null)
    return `nothing fetched: the listing's delayed-provider symbol could not be verified (${r.error.detail}); ${what}`;
  if (r.error.failure === "not_found")
    return `nothing fetched: the delayed provider has no fundamentals for ${r.symbol} (${r.error.detail}); ${what}`;
  return `nothing fetched: the delayed provider failed for ${r.symbol} (${r.error.detail}); ${what}`;
}
