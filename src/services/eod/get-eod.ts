import type { ListingRow } from "../../db/repositories/catalogue";
import { listingSpans } from "../../db/repositories/listing-prices";
import { type ListingPrices, readDailyWindow } from "../../db/repositories/prices";
import { BadRequestError, NoDataError, ServiceError } from "../../domain/errors";
import { dayBefore } from "../../domain/ingest-plan";
import type { IngestReport } from "../../domain/ingest-report";
import { catalogueVenue, missingSessionsReason } from "../../domain/market-hours";
import { type Period, type PeriodWindow, tenYearsBefore, windowOf } from "../../domain/periods";
import { STREAM } from "../../domain/provider-names";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { givenRange } from "../date-range";
import { convertedVariant } from "../fx/converted-answers";
import { refuseClosedWindow } from "../shared/closed-window";
import { readThrough } from "../shared/read-through";
import { resolveListingWithPrices } from "../shared/resolve-listing";
import { StillRunningError } from "../shared/single-flight";
import { ingestListing } from "./ingest-listing";
import { type EodAnswer, type EodQuery, render, type Shaped, shape, type WindowBars } from "./shape-eod";

export type { EodAnswer, EodQuery };

const RESOLUTION_PERIODS: readonly Period[] = ["daily", "weekly", "monthly"];

/** The window asked for: a period, or from/to (with daily, weekly or monthly as the bar size). */
function windowOfQuery(q: EodQuery, today: string): { window: PeriodWindow; label: string } {
  const range = givenRange(q.from, q.to);
  if (range && range.from > today)
    throw new BadRequestError(
      `the window ${range.from} to ${range.to} is wholly in the future (today is ${today}): end-of-day prices exist for past sessions only`,
    );
  if (!range) {
    if (!q.period) throw new BadRequestError("period is required unless from and to are given");
    return { window: windowOf(q.period, today), label: q.period };
  }
  if (q.period && !RESOLUTION_PERIODS.includes(q.period)) {
    throw new BadRequestError(
      `period ${q.period} is a window of its own; with from and to use daily, weekly or monthly`,
    );
  }
  const resolution = q.period === "weekly" || q.period === "monthly" ? q.period : "daily";
  return { window: { ...range, lastBars: null, resolution }, label: q.period ?? "custom" };
}

/** Every parameter that shapes the answer, so equal requests share one cache entry and no DB round trip. */
function cacheVariant(q: EodQuery): string {
  return [
    // First, so that every converted answer matches one pattern (dropped when new rates are stored).
    ...(q.convert ? [convertedVariant(q.convert)] : []),
    q.isin ?? "",
    q.currency ?? "",
    q.exchange ?? "",
    q.period ?? "",
    q.from ?? "",
    q.to ?? "",
    q.fmt,
    q.order,
    q.repair ? "repaired" : "",
  ]
    .join(":")
    .toUpperCase();
}

/**
 * The ingestion's failures as the caller sees them: 503 when a retry may succeed, else 404 with
 * each provider's reason. When every provider answered and none had a bar, the reason says why:
 * today's session is not an end-of-day bar yet, the listing's history starts after the window, or
 * the venue traded and its sessions are missing (a day it traded is no "no trading sessions").
 */
async function nothingIngested(
  ctx: Context,
  listing: ListingRow,
  report: IngestReport,
  window: PeriodWindow,
  today: string,
): Promise<never> {
  const why = report.errors.map((e) => `${e.provider}: ${e.message}`).join("; ");
  if (report.errors.some((e) => e.transient)) {
    throw new ServiceError("UPSTREAM_UNAVAILABLE", `No provider could serve ${listing.ticker} now: ${why}`, {
      reason: why,
    });
  }
  const yesterday = dayBefore(today);
  const none = (reason: string): never => {
    throw new NoDataError(`No data found for ${listing.ticker}`, reason);
  };
  if (why) none(why);
  if (window.from !== null && window.from > yesterday)
    none(`end-of-day bars are kept through yesterday (${yesterday}): today's session is not one yet`);
  const { stored } = await listingSpans(ctx.db, listing.id, STREAM);
  const to = window.to !== null && window.to < yesterday ? window.to : yesterday;
  if (stored && to < stored.first)
    none(`${listing.ticker}'s history at the providers starts on ${stored.first}, after the requested window`);
  const from = stored && window.from !== null && window.from < stored.first ? stored.first : window.from;
  const venue = catalogueVenue(listing.exchange);
  const missing = venue && from ? missingSessionsReason(venue, from, to) : null;
  return none(
    missing ? `missing sessions: ${missing}` : `no trading sessions of ${listing.ticker} in the requested window`,
  );
}

/**
 * Rule 2: nothing stored for the window, so ingest (ten years, or further back if asked) and read
 * again. The read happens whoever wrote the rows (this request or a concurrent one it waited for).
 */
async function ingestThenRead(
  ctx: Context,
  listing: ListingRow,
  window: PeriodWindow,
  today: string,
): Promise<WindowBars & { source: string }> {
  const tenYears = tenYearsBefore(today);
  const from = window.from && window.from < tenYears ? window.from : tenYears;
  const report = await ingestListing({ ctx, input: { listing, wanted: { from, to: dayBefore(today) }, today } });
  const read = await readDailyWindow(ctx.db, listing.id, window, STREAM);
  if (read.bars.length === 0) await nothingIngested(ctx, listing, report, window, today);
  return { ...read, source: report.source ?? "database" };
}

/**
 * A stored series that lacks the newest complete session is topped up, one that starts after the
 * window's first day (a cleanup deleted its older prices) is filled in from there, and
 * stream-sourced bars are offered to the delayed provider again; a failure still answers with what
 * is stored. The years before a listing traded are asked once and remembered as empty (ingest).
 * What was read with the listing decides whether anything is missing: nothing more is read when
 * nothing is.
 */
async function refresh(
  ctx: Context,
  listing: ListingRow,
  window: PeriodWindow,
  stored: ListingPrices,
  today: string,
): Promise<WindowBars> {
  const yesterday = dayBefore(today);
  const to = window.to !== null && window.to < yesterday ? window.to : yesterday;
  const first = stored.bars[0]?.date ?? to;
  const from = window.from !== null && window.from < first ? window.from : first;
  try {
    const known = { stored: stored.stored, sourced: stored.sourced };
    const report = await ingestListing({ ctx, input: { listing, wanted: { from, to }, today, known } });
    return report.written > 0 ? readDailyWindow(ctx.db, listing.id, window, STREAM) : stored;
  } catch (err) {
    // Another request is still topping the listing up: what is stored answers meanwhile.
    if (err instanceof StillRunningError) return stored;
    throw err;
  }
}

/**
 * GET /eod/{ticker}: the bars of the chosen listing over the window, ingesting first when nothing is
 * stored for it (rule 2) and topping up a stored series that lacks the newest sessions. Answers are
 * cached 24 hours (spec), an ingestion's too; an ingestion of the ticker drops them.
 */
export async function getEod({ ctx, input }: { ctx: Context; input: EodQuery }): Promise<EodAnswer> {
  const today = ctx.clock.today();
  const { window, label } = windowOfQuery(input, today);
  let ingested: { listing: ListingRow; shaped: Shaped; now: Date } | null = null;
  let provisional = false;
  let awaitingRate = false;
  const load = async (): Promise<EodAnswer> => {
    // The listing, its bars in the window and its spans: one round trip.
    const { listing, prices } = await resolveListingWithPrices({ ctx, input: { ...input, window, source: STREAM } });
    if (prices.bars.length === 0) refuseClosedWindow(listing, window, today);
    const { source, ...read } =
      prices.bars.length > 0
        ? { ...(await refresh(ctx, listing, window, prices, today)), source: "database" }
        : await ingestThenRead(ctx, listing, window, today);
    const shaped = await shape(ctx, input, window, read, listing);
    awaitingRate = shaped.fx?.provisional ?? false;
    const now = ctx.clock.now();
    if (source !== "database") ingested = { listing, shaped, now };
    provisional = read.windowHasSource;
    return render(input, label, listing, shaped, source, now);
  };
  // The copy of an ingestion's answer kept for later requests says "database": by then the prices
  // are stored (spec data_source).
  const asStored = (): EodAnswer | null =>
    ingested ? render(input, label, ingested.listing, ingested.shaped, "database", ingested.now) : null;
  const key = cacheKeys.eod(input.ticker, cacheVariant(input));
  // Bars from the stream provider wait to be replaced by the delayed provider's: an answer holding
  // any is not kept, so that the next request finds the replacement (tried at most every 15 minutes).
  // Nor is a converted answer in which a bar waits for its day's rate: the next request, once the
  // rate is stored, is built at it.
  const answer = (
    await readThrough(ctx, {
      key,
      ttlSeconds: cacheTtls(ctx.config).eod,
      build: load,
      cacheAs: (answer) => asStored() ?? answer,
      shouldCache: () => !provisional && !awaitingRate,
    })
  ).value;
  return answer;
}
