import type { ListingRow } from "../../db/repositories/catalogue";
import { upsertCorporateActions } from "../../db/repositories/corporate-actions";
import { saveFindings } from "../../db/repositories/price-findings";
import { upsertDailyBars } from "../../db/repositories/prices-write";
import type { Bar } from "../../domain/bars";
import { readjustmentRange } from "../../domain/corporate-actions";
import {
  covers,
  emptyParts,
  emptyTtlSeconds,
  wholeSpanStored as isWholeSpanStored,
  spanOf,
} from "../../domain/ingest-decisions";
import type { DateRange } from "../../domain/ingest-plan";
import { type IngestReport, statusOf } from "../../domain/ingest-report";
import { capitalGainsInDividends } from "../../domain/price-sanity-sources";
import { streamSymbolOf } from "../../domain/provider-symbols";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { checkPrices } from "../prices/check-prices";
import { refreshSnapshots } from "../technical/snapshots";
import { delayedRanges, fetchFrom, NOTHING, type Plan, sessionTestOf } from "./gather-ingest";
import { verifiedDelayedSymbol } from "./verify-symbol";

/** Remembers the parts of the requested ranges the provider that answered had no bar for (emptyParts). */
async function rememberEmpty(
  ctx: Context,
  listing: ListingRow,
  ranges: readonly DateRange[],
  bars: readonly Bar[],
  today: string,
): Promise<void> {
  const empty = emptyParts(ranges, bars, sessionTestOf(listing));
  await Promise.all(
    empty.map((r) => ctx.cache.set(cacheKeys.emptyRange(listing.id, r.from, r.to), true, emptyTtlSeconds(r, today))),
  );
}

/** Stores a range again from the delayed provider, bars and events (the provider's adjustments have changed); answers the rows written. */
async function storeAgain(ctx: Context, listing: ListingRow, symbol: string, range: DateRange): Promise<number> {
  const delayed = ctx.providers.delayed;
  const again = await fetchFrom(delayed, symbol, listing, [range]);
  const written = await upsertDailyBars(ctx.db, listing.id, again.bars, delayed.name);
  await upsertCorporateActions(ctx.db, listing.id, again, delayed.name, [range]);
  return written;
}

/** Fetches and stores a plan: the delayed provider first (missing and replaced windows), the stream provider for what is missing. */
export async function runPlan(ctx: Context, listing: ListingRow, plan: Plan, today: string): Promise<IngestReport> {
  const report: Omit<IngestReport, "status"> = {
    wanted: plan.wanted,
    requested: plan.requested,
    replaced: [],
    source: null,
    fetched: 0,
    written: 0,
    errors: [],
  };
  const failed = (provider: string, err: ProviderError) =>
    report.errors.push({
      provider,
      message: err.detail,
      transient: err.failure !== "not_found",
      ...(err.failure === "deadline" ? { unasked: true } : {}),
    });
  let answered: Bar[] | null = null;
  let missing = plan.requested;
  /** The delayed provider answered (its events, if any, are stored): the check runs even when nothing changed. */
  let delayedAnswered = false;
  /** Every delayed bar of the listing was stored by this ingestion, at the provider's precision. */
  let wholeSpanStored = false;

  const delayed = ctx.providers.delayed;
  try {
    const verdict = await verifiedDelayedSymbol({ ctx, input: { listing, today } });
    if (verdict.symbol === null)
      report.errors.push({ provider: delayed.name, message: verdict.reason, transient: verdict.transient });
    else {
      const { ranges, wholeSpan } = await delayedRanges(ctx, listing, plan);
      const fetched = ranges.length ? await fetchFrom(delayed, verdict.symbol, listing, ranges) : NOTHING;
      const bars = fetched.bars;
      if (bars.length === 0 && !plan.stored)
        report.errors.push({ provider: delayed.name, message: `no bars for ${verdict.symbol}`, transient: false });
      else {
        report.source = delayed.name;
        report.replaced = plan.replaced;
        report.fetched = bars.length;
        report.written = await upsertDailyBars(ctx.db, listing.id, bars, delayed.name);
        answered = bars;
        missing = [];
        delayedAnswered = true;
        wholeSpanStored = isWholeSpanStored(plan.stored, wholeSpan, bars[0]?.date);
        // A whole stored span asked again is the provider's word on its events: one it no longer sends goes.
        const newEvents = await upsertCorporateActions(
          ctx.db,
          listing.id,
          fetched,
          delayed.name,
          wholeSpan ? ranges : [],
        );
        // A fund's dividends that include the capital gains the provider sends apart: a finding of the
        // net (j), the answer's word for the window it covered. The prices are stored either way.
        if (ranges.length)
          await saveFindings(
            ctx.db,
            listing.id,
            { kinds: ["capital_gains_in_dividend"], ...spanOf(ranges) },
            capitalGainsInDividends(fetched.dividends, fetched.capitalGains),
            ctx.clock.now(),
          ).catch((err: unknown) => console.warn("capital gains findings not written", listing.ticker, String(err)));
        // Stored bars that predate a new dividend or split are stored again as the provider now adjusts them.
        const stale = readjustmentRange(plan.stored, newEvents);
        if (stale && !covers(ranges, stale))
          try {
            report.written += await storeAgain(ctx, listing, verdict.symbol, stale);
          } catch (err) {
            if (!(err instanceof ProviderError)) throw err;
            // The bars and events stay stored: the check finds the closes left stale, and delayedRanges heals them.
            failed(delayed.name, err);
          }
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
      const { bars } = await fetchFrom(stream, streamSymbolOf(listing.ticker, listing.exchange), listing, missing);
      if (bars.length === 0 && !plan.stored)
        report.errors.push({ provider: stream.name, message: "no bars", transient: false });
      else {
        report.source = stream.name;
        report.fetched = bars.length;
        report.written = await upsertDailyBars(ctx.db, listing.id, bars, stream.name);
        answered = bars;
      }
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      failed(stream.name, err);
    }
  }
  if (answered) await rememberEmpty(ctx, listing, plan.requested, answered, today);
  await afterStore(ctx, listing, { written: report.written, delayedAnswered, wholeSpanStored });
  return { status: statusOf(report), ...report };
}

/**
 * What follows a store: the price checks (when rows changed or the delayed provider answered), and
 * when rows changed the indicator snapshots and the cached answers they make stale.
 */
async function afterStore(
  ctx: Context,
  listing: ListingRow,
  stored: { written: number; delayedAnswered: boolean; wholeSpanStored: boolean },
): Promise<void> {
  if (stored.written > 0 || stored.delayedAnswered)
    // The prices are stored either way: a check that fails here is run again by the next ingestion.
    await checkPrices(ctx, listing, stored.wholeSpanStored).catch((err: unknown) =>
      console.warn("price checks not written", listing.ticker, String(err)),
    );
  if (stored.written > 0) {
    // The screener's values follow the bars, under this ingestion's lease (no older write can land
    // after it). The bars are stored either way: a failure here leaves the snapshots to the next refresh.
    await refreshSnapshots(ctx, [listing.id]).catch((err: unknown) =>
      console.warn("indicator snapshots not written", listing.ticker, String(err)),
    );
    // Every answer the new prices make stale: the ticker's prices, indicators and valuations (its
    // price), and every screen. The prices are stored either way: a cache that fails here costs
    // stale answers, not this one.
    await Promise.all(
      [
        cacheKeys.eodOfTicker(listing.ticker),
        cacheKeys.technicalOfTicker(listing.ticker),
        cacheKeys.dcfOfTicker(listing.ticker),
        cacheKeys.screenerAll(),
      ].map((pattern) => ctx.cache.deletePattern(pattern)),
    ).catch((err: unknown) => console.warn("cache drop after ingestion failed", listing.ticker, String(err)));
  }
}
