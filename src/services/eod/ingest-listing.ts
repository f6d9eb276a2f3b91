import { cacheKeys } from "../../cache";
import type { ListingRow } from "../../db/repositories/catalogue";
import { storedRange, upsertDailyBars } from "../../db/repositories/prices";
import { type Bar, scaleBars } from "../../domain/bars";
import { type DateRange, missingRanges } from "../../domain/ingest-plan";
import { currencyScale, streamSymbolOf } from "../../domain/provider-symbols";
import type { Deps } from "../../deps";
import { ProviderError } from "../../providers/errors";
import type { HistoryProvider } from "../../providers/history";
import { verifiedDelayedSymbol } from "./verify-symbol";

export interface IngestError {
  provider: string;
  message: string;
}

/** What one ingestion did for one listing. */
export interface IngestReport {
  listing: ListingRow;
  /** The windows that were missing and asked of the providers. */
  requested: DateRange[];
  /** The provider whose bars were stored (null when nothing was asked or every provider failed). */
  source: string | null;
  /** Bars the provider returned, and rows inserted or changed (0 on a rerun of the same range). */
  fetched: number;
  written: number;
  errors: IngestError[];
}

/** Fetches `ranges` from one provider, in the listing's currency; throws a ProviderError or a plain reason. */
async function fetchFrom(provider: HistoryProvider, symbol: string, listing: ListingRow, ranges: readonly DateRange[]): Promise<Bar[]> {
  const bars: Bar[] = [];
  for (const r of ranges) {
    const history = await provider.dailyHistory(symbol, r.from, r.to);
    const scale = currencyScale(history.currency, listing.currency);
    if (scale === null) throw new ProviderError(provider.name, "bad_response", `${symbol} is quoted in ${history.currency ?? "an unknown currency"}, the listing in ${listing.currency}`);
    bars.push(...scaleBars(history.bars, scale));
  }
  return bars;
}

/**
 * Stores what is missing of `wanted` for a listing: the delayed provider with the listing's verified
 * symbol first, the stream provider as fallback (spec /eod rule 2). Batched idempotent upserts, so a
 * rerun adds nothing and loses nothing; a provider failure is reported, never thrown. When rows
 * changed, the ticker's price-derived cached answers (EOD, indicators) are dropped.
 */
export async function ingestListing({ ctx, input }: { ctx: Deps; input: { listing: ListingRow; wanted: DateRange; today: string } }): Promise<IngestReport> {
  const { listing, wanted, today } = input;
  const db = ctx.db.db;
  const stored = await storedRange(db, listing.id);
  const requested = missingRanges(wanted, stored);
  const report: IngestReport = { listing, requested, source: null, fetched: 0, written: 0, errors: [] };
  if (requested.length === 0) return report;

  const attempts: { provider: HistoryProvider; symbol: () => Promise<string | null> }[] = [
    {
      provider: ctx.providers.delayed,
      symbol: async () => {
        const verdict = await verifiedDelayedSymbol({ ctx, input: { listing, today } });
        if (verdict.symbol === null) report.errors.push({ provider: ctx.providers.delayed.name, message: verdict.reason });
        return verdict.symbol;
      },
    },
    { provider: ctx.providers.stream, symbol: async () => streamSymbolOf(listing.ticker, listing.exchange) },
  ];
  for (const { provider, symbol } of attempts) {
    try {
      const sym = await symbol();
      if (!sym) continue;
      const bars = await fetchFrom(provider, sym, listing, requested);
      if (bars.length === 0 && !stored) {
        // A provider with no bars at all for a fresh listing does not know it: ask the next one.
        report.errors.push({ provider: provider.name, message: `no bars for ${sym}` });
        continue;
      }
      report.source = provider.name;
      report.fetched = bars.length;
      report.written = await upsertDailyBars(db, listing.id, bars, provider.name);
      break;
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      report.errors.push({ provider: provider.name, message: err.detail });
    }
  }
  if (report.written > 0) {
    // The prices are stored either way: a cache that fails here costs stale answers, not this one.
    await Promise.all([ctx.cache.deletePattern(cacheKeys.eodOfTicker(listing.ticker)), ctx.cache.deletePattern(cacheKeys.technicalOfTicker(listing.ticker))]).catch((err: unknown) =>
      console.warn("cache drop after ingestion failed", listing.ticker, String(err)),
    );
  }
  return report;
}
