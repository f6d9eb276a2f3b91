import { cacheKeys } from "../../cache";
import type { ListingRow } from "../../db/repositories/catalogue";
import { sourcedRange, storedRange, upsertDailyBars } from "../../db/repositories/prices";
import { type Bar, scaleBars } from "../../domain/bars";
import { type DateRange, missingRanges } from "../../domain/ingest-plan";
import { currencyScale, streamSymbolOf } from "../../domain/provider-symbols";
import type { Deps } from "../../deps";
import { ProviderError } from "../../providers/errors";
import type { HistoryProvider } from "../../providers/history";
import { STREAM } from "../../providers/stream/client";
import { singleFlight } from "./single-flight";
import { verifiedDelayedSymbol } from "./verify-symbol";

export interface IngestError {
  provider: string;
  message: string;
  /** A retry may succeed (timeout, 5xx, 429, a malformed answer); false when the provider said it has nothing. */
  transient: boolean;
}

/**
 * `up_to_date`: nothing was missing, or the providers had nothing newer; `ingested`: rows were
 * written; `failed`: something was missing and no provider answered.
 */
export type IngestStatus = "ingested" | "up_to_date" | "failed";

/** What one ingestion did for one listing: the same report for every request that asked for it together. */
export interface IngestReport {
  status: IngestStatus;
  /** The windows that were missing and asked of the providers. */
  requested: DateRange[];
  /** Windows stored from the stream provider, asked again of the delayed provider to store adjusted closes. */
  replaced: DateRange[];
  /** The provider whose bars were stored (null when nothing was asked or every provider failed). */
  source: string | null;
  /** Bars the provider returned, and rows inserted or changed (0 on a rerun of the same range). */
  fetched: number;
  written: number;
  errors: IngestError[];
}

/** Fetches `ranges` from one provider, in the listing's currency; throws a ProviderError. */
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

interface Plan {
  requested: DateRange[];
  replaced: DateRange[];
}

/** What is missing of `wanted`, and the span of stream-sourced bars the delayed provider should replace. */
async function planOf(ctx: Deps, listing: ListingRow, wanted: DateRange): Promise<Plan & { stored: boolean }> {
  const db = ctx.db.db;
  const [stored, streamed] = await Promise.all([storedRange(db, listing.id), sourcedRange(db, listing.id, STREAM)]);
  return { stored: stored !== null, requested: missingRanges(wanted, stored), replaced: streamed ? [streamed] : [] };
}

const statusOf = (r: Omit<IngestReport, "status">): IngestStatus =>
  r.requested.length === 0 ? "up_to_date" : r.written > 0 ? "ingested" : r.source !== null ? "up_to_date" : "failed";

/** Fetches and stores a plan: the delayed provider first (missing and replaced windows), the stream provider for what is missing. */
async function runPlan(ctx: Deps, listing: ListingRow, plan: Plan & { stored: boolean }, today: string): Promise<IngestReport> {
  const report: Omit<IngestReport, "status"> = { requested: plan.requested, replaced: [], source: null, fetched: 0, written: 0, errors: [] };
  const failed = (provider: string, err: ProviderError) => report.errors.push({ provider, message: err.detail, transient: err.failure !== "not_found" });
  let missing = plan.requested;

  const delayed = ctx.providers.delayed;
  try {
    const verdict = await verifiedDelayedSymbol({ ctx, input: { listing, today } });
    if (verdict.symbol === null) report.errors.push({ provider: delayed.name, message: verdict.reason, transient: verdict.transient });
    else {
      const ranges = [...plan.requested, ...plan.replaced];
      const bars = ranges.length ? await fetchFrom(delayed, verdict.symbol, listing, ranges) : [];
      if (bars.length === 0 && !plan.stored) report.errors.push({ provider: delayed.name, message: `no bars for ${verdict.symbol}`, transient: false });
      else {
        report.source = delayed.name;
        report.replaced = plan.replaced;
        report.fetched = bars.length;
        report.written = await upsertDailyBars(ctx.db.db, listing.id, bars, delayed.name);
        missing = [];
      }
    }
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    failed(delayed.name, err);
  }

  // The stream provider fills only what is missing: it never overwrites the delayed provider's bars.
  const stream = ctx.providers.stream;
  if (missing.length > 0) {
    try {
      const bars = await fetchFrom(stream, streamSymbolOf(listing.ticker, listing.exchange), listing, missing);
      if (bars.length === 0 && !plan.stored) report.errors.push({ provider: stream.name, message: "no bars", transient: false });
      else {
        report.source = stream.name;
        report.fetched = bars.length;
        report.written = await upsertDailyBars(ctx.db.db, listing.id, bars, stream.name);
      }
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      failed(stream.name, err);
    }
  }
  if (report.written > 0) {
    // The prices are stored either way: a cache that fails here costs stale answers, not this one.
    await Promise.all([ctx.cache.deletePattern(cacheKeys.eodOfTicker(listing.ticker)), ctx.cache.deletePattern(cacheKeys.technicalOfTicker(listing.ticker))]).catch((err: unknown) =>
      console.warn("cache drop after ingestion failed", listing.ticker, String(err)),
    );
  }
  return { status: statusOf(report), ...report };
}

/**
 * Stores what is missing of `wanted` for a listing (spec /eod rule 2): the delayed provider with
 * the listing's verified symbol first, the stream provider as fallback; bars stored from the stream
 * provider are replaced by the delayed provider's when it answers. One ingestion per listing at a
 * time across every isolate (a lease in Postgres): concurrent callers wait for it and answer with
 * its report. Batched idempotent upserts; a provider failure is reported, never thrown.
 */
export async function ingestListing({ ctx, input }: { ctx: Deps; input: { listing: ListingRow; wanted: DateRange; today: string } }): Promise<IngestReport> {
  const { listing, wanted, today } = input;
  const upToDate: IngestReport = { status: "up_to_date", requested: [], replaced: [], source: null, fetched: 0, written: 0, errors: [] };
  return singleFlight<IngestReport>(ctx, listing.id, {
    // A holder that failed is not retried by each request that waited for it: they share its failure.
    failed: (report) => report.status === "failed",
    // Nothing missing: no lease, no provider call. Stream-sourced bars alone are retried at most every RETRY window.
    isDone: async () => {
      const plan = await planOf(ctx, listing, wanted);
      return plan.requested.length === 0 && (plan.replaced.length === 0 || !(await replacementDue(ctx, listing.id))) ? upToDate : null;
    },
    run: async () => {
      const plan = await planOf(ctx, listing, wanted);
      if (plan.requested.length === 0 && plan.replaced.length === 0) return upToDate;
      if (plan.replaced.length > 0) await noteReplacementTried(ctx, listing.id);
      return runPlan(ctx, listing, plan, today);
    },
  });
}

/** Stream-sourced bars are asked of the delayed provider again at most this often, so a provider still down costs one call per window. */
const REPLACEMENT_RETRY_SECONDS = 900;

async function replacementDue(ctx: Deps, listingId: number): Promise<boolean> {
  return (await ctx.cache.get<boolean>(cacheKeys.replacementTried(listingId))) === null;
}

async function noteReplacementTried(ctx: Deps, listingId: number): Promise<void> {
  await ctx.cache.set(cacheKeys.replacementTried(listingId), true, REPLACEMENT_RETRY_SECONDS);
}
