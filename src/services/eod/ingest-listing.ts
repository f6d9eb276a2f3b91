import type { ListingRow } from "../../db/repositories/catalogue";
import { readAdjustmentCheck, upsertCorporateActions } from "../../db/repositories/corporate-actions";
import { listingSpans } from "../../db/repositories/listing-prices";
import { saveFindings } from "../../db/repositories/price-findings";
import type { ListingPrices, StoredSpan } from "../../db/repositories/prices";
import { upsertDailyBars } from "../../db/repositories/prices-write";
import { type Bar, scaleBars } from "../../domain/bars";
import { type Dividend, readjustmentRange, type Split } from "../../domain/corporate-actions";
import {
  type DateRange,
  dayBefore,
  earlier,
  later,
  missingRanges,
  type SessionTest,
  sessionsOf,
  venueSessionTest,
} from "../../domain/ingest-plan";
import { addDays } from "../../domain/instants";
import { catalogueVenue } from "../../domain/market-hours";
import { capitalGainsInDividends } from "../../domain/price-sanity-sources";
import { STREAM } from "../../domain/provider-names";
import { currencyScale, streamSymbolOf } from "../../domain/provider-symbols";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import type { HistoryProvider } from "../../providers/history";
import { checkPrices } from "../prices/check-prices";
import { singleFlight } from "../shared/single-flight";
import { refreshSnapshots } from "../technical/snapshots";
import { verifiedDelayedSymbol } from "./verify-symbol";

export interface IngestError {
  provider: string;
  message: string;
  /** A retry may succeed (timeout, 5xx, 429, a malformed answer); false when the provider said it has nothing. */
  transient: boolean;
  /** Not asked at all: the request's deadline had passed before this provider's turn. */
  unasked?: boolean;
}

/**
 * `up_to_date`: nothing was missing, or the providers had nothing newer; `ingested`: rows were
 * written; `failed`: something was missing and no provider answered.
 */
export type IngestStatus = "ingested" | "up_to_date" | "failed";

/** What one ingestion did for one listing: the same report for every request that asked for it together. */
export interface IngestReport {
  status: IngestStatus;
  /** The window this ingestion was asked to make sure is stored. */
  wanted: DateRange;
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

/** The report of an ingestion that asked no provider: nothing missing, or (with errors) it could not run. */
export function reportWithoutFetch(wanted: DateRange, status: IngestStatus, errors: IngestError[] = []): IngestReport {
  return { status, wanted, requested: [], replaced: [], source: null, fetched: 0, written: 0, errors };
}

interface Fetched {
  bars: Bar[];
  dividends: Dividend[];
  splits: Split[];
  capitalGains: Dividend[];
}

/** Fetches `ranges` from one provider, in the listing's currency (dividends too); throws a ProviderError. */
async function fetchFrom(
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

interface Plan {
  wanted: DateRange;
  requested: DateRange[];
  replaced: DateRange[];
  /** The listing's stored span when the plan was made (null: nothing stored). */
  stored: StoredSpan | null;
}

/**
 * A range a provider answered without a bar (a venue holiday, the years before a listing traded) is
 * not asked again for a day, or for an hour when it ends yesterday (a late bar may still come).
 */
const emptyTtlSeconds = (range: DateRange, today: string) => (range.to >= dayBefore(today) ? 3_600 : 86_400);

/** The days the listing's venue may trade, on the calendar the refresh runs on (venueSessionTest). */
const sessionTestOf = (listing: ListingRow): SessionTest => venueSessionTest(catalogueVenue(listing.exchange));

/** A listing's stored span and the span of its stream-sourced bars (`sourced`), as a caller has just read them. */
export type KnownSpans = Pick<ListingPrices, "stored" | "sourced">;

/**
 * What is missing of `wanted` (less the ranges lately answered empty), and the span of
 * stream-sourced bars to replace; from `known` spans when the caller has them (no round trip).
 */
async function planOf(ctx: Context, listing: ListingRow, wanted: DateRange, known?: KnownSpans): Promise<Plan> {
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

const statusOf = (r: Omit<IngestReport, "status">): IngestStatus =>
  r.written > 0 ? "ingested" : r.requested.length === 0 || r.source !== null ? "up_to_date" : "failed";

/**
 * Remembers the parts of the requested ranges the provider that answered had no bar for: a whole
 * range, or its head before the first bar and its tail after the last, cut to possible sessions as
 * the next plan will cut them (so that the keys meet).
 */
async function rememberEmpty(
  ctx: Context,
  listing: ListingRow,
  ranges: readonly DateRange[],
  bars: readonly Bar[],
  today: string,
): Promise<void> {
  const empty: DateRange[] = [];
  for (const r of ranges) {
    const inside = bars.filter((b) => b.date >= r.from && b.date <= r.to).map((b) => b.date);
    if (inside.length === 0) {
      empty.push(r);
      continue;
    }
    const [first, last] = [inside.reduce(earlier), inside.reduce(later)];
    for (const part of [
      sessionsOf({ from: r.from, to: dayBefore(first) }, sessionTestOf(listing)),
      sessionsOf({ from: addDays(last, 1), to: r.to }, sessionTestOf(listing)),
    ])
      if (part) empty.push(part);
  }
  await Promise.all(
    empty.map((r) => ctx.cache.set(cacheKeys.emptyRange(listing.id, r.from, r.to), true, emptyTtlSeconds(r, today))),
  );
}

const NOTHING: Fetched = { bars: [], dividends: [], splits: [], capitalGains: [] };

/** A dividend in the listing's currency (a pence line's amounts scale as its prices, to 8 places as stored). */
const scaleAmount = (amount: number, scale: number) => (scale === 1 ? amount : Number((amount * scale).toFixed(8)));

/**
 * How long a whole-span request is not repeated for the same state: a listing never checked (its
 * first request may have failed) a refresh interval less a margin; the same disagreement a week,
 * since asking again healed nothing (an event the provider withdrew stays stored, say).
 */
const RETRY_UNCHECKED_SECONDS = 20 * 3_600;
const RETRY_SAME_DISAGREEMENT_SECONDS = 7 * 86_400;

/**
 * What to ask the delayed provider: the missing and replaced windows; and, with them in one call,
 * the whole stored span of a listing whose adjusted closes are not known to agree with its events:
 * never checked (its prices were stored before events were), found disagreeing (a readjustment
 * that failed, a provider that corrected its history), or stored rounded to the price hint (before
 * the service kept the provider's precision). Each such state is asked about once, then
 * again only after its retry time (the cache remembers which state was last asked about; a cache
 * that cannot answer lets the request through).
 */
async function delayedRanges(
  ctx: Context,
  listing: ListingRow,
  plan: Plan,
): Promise<{ ranges: DateRange[]; wholeSpan: boolean }> {
  const ranges = [...plan.requested, ...plan.replaced];
  const asPlanned = { ranges, wholeSpan: false };
  if (!plan.stored || ranges.length === 0) return asPlanned;
  const check = await readAdjustmentCheck(ctx.db, listing.id);
  if (check !== null && check.mismatches === 0 && check.precision === "full") return asPlanned;
  // Bars stored rounded to the price hint are repaired by storing the whole span again.
  const state =
    check === null ? "unchecked" : `${check.precision} ${check.mismatches} from ${check.detail[0]?.date ?? "?"}`;
  const key = cacheKeys.readjustTried(listing.id);
  if ((await ctx.cache.get<string>(key)) === state) return asPlanned;
  await ctx.cache.set(key, state, check === null ? RETRY_UNCHECKED_SECONDS : RETRY_SAME_DISAGREEMENT_SECONDS);
  const all = [...ranges, { from: plan.stored.first, to: plan.stored.last }];
  return {
    ranges: [{ from: all.map((r) => r.from).reduce(earlier), to: all.map((r) => r.to).reduce(later) }],
    wholeSpan: true,
  };
}

const covers = (ranges: readonly DateRange[], r: DateRange) => ranges.some((c) => c.from <= r.from && c.to >= r.to);

/** Stores a range again from the delayed provider, bars and events (the provider's adjustments have changed); answers the rows written. */
async function storeAgain(ctx: Context, listing: ListingRow, symbol: string, range: DateRange): Promise<number> {
  const delayed = ctx.providers.delayed;
  const again = await fetchFrom(delayed, symbol, listing, [range]);
  const written = await upsertDailyBars(ctx.db, listing.id, again.bars, delayed.name);
  await upsertCorporateActions(ctx.db, listing.id, again, delayed.name, [range]);
  return written;
}

/** Fetches and stores a plan: the delayed provider first (missing and replaced windows), the stream provider for what is missing. */
async function runPlan(ctx: Context, listing: ListingRow, plan: Plan, today: string): Promise<IngestReport> {
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
        // Whole only when the answer reached back to the first stored session (within a week: a
        // holiday or a slot sent empty); an answer that stopped short left older bars as they were.
        const firstFetched = bars[0]?.date;
        wholeSpanStored =
          plan.stored === null ||
          (wholeSpan && firstFetched !== undefined && firstFetched <= addDays(plan.stored.first, 7));
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
            {
              kinds: ["capital_gains_in_dividend"],
              from: ranges.map((r) => r.from).reduce(earlier),
              to: ranges.map((r) => r.to).reduce(later),
            },
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
  if (report.written > 0 || delayedAnswered)
    // The prices are stored either way: a check that fails here is run again by the next ingestion.
    await checkPrices(ctx, listing, wholeSpanStored).catch((err: unknown) =>
      console.warn("price checks not written", listing.ticker, String(err)),
    );
  if (report.written > 0) {
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
  return { status: statusOf(report), ...report };
}

/**
 * Stores what is missing of `wanted` for a listing (spec /eod rule 2): the delayed provider with
 * the listing's verified symbol first, the stream provider as fallback; bars stored from the stream
 * provider are replaced by the delayed provider's when it answers. One ingestion per listing at a
 * time across every isolate (a lease in Postgres): concurrent callers wait for it and answer with
 * its report. Batched idempotent upserts; a provider failure is reported, never thrown.
 */
export async function ingestListing({
  ctx,
  input,
}: {
  ctx: Context;
  /** `known`: the listing's spans as the caller read them just before, for the first check. */
  input: { listing: ListingRow; wanted: DateRange; today: string; known?: KnownSpans };
}): Promise<IngestReport> {
  const { listing, wanted, today } = input;
  let known = input.known;
  const upToDate = reportWithoutFetch(wanted, "up_to_date");
  return singleFlight<IngestReport>(ctx, listing.id, {
    // A holder that worked on this window or a wider one answers for us, failures included (one
    // failing fetch per wave of requests, not one each), unless it failed for want of time.
    answers: (r) =>
      r.wanted.from <= wanted.from &&
      r.wanted.to >= wanted.to &&
      !(r.status === "failed" && r.errors.some((e) => e.unasked)),
    // Nothing missing: no lease, no provider call. Stream-sourced bars alone are retried at most every RETRY window.
    isDone: async () => {
      // The caller's spans hold for the first check only: after a wait, another holder has written.
      const plan = await planOf(ctx, listing, wanted, known);
      known = undefined;
      return plan.requested.length === 0 && (plan.replaced.length === 0 || !(await replacementDue(ctx, listing.id)))
        ? upToDate
        : null;
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

async function replacementDue(ctx: Context, listingId: number): Promise<boolean> {
  return (await ctx.cache.get<boolean>(cacheKeys.replacementTried(listingId))) === null;
}

async function noteReplacementTried(ctx: Context, listingId: number): Promise<void> {
  await ctx.cache.set(cacheKeys.replacementTried(listingId), true, REPLACEMENT_RETRY_SECONDS);
}
