import { isoWithOffset } from "../../clock";
import type { ListingRow } from "../../db/repositories/catalogue";
import { listingSpans } from "../../db/repositories/listing-prices";
import { type ListingPrices, readDailyWindow } from "../../db/repositories/prices";
import { type Bar, periodKey, type Resolution, resample } from "../../domain/bars";
import { barsToCsv, convertedBarsToCsv } from "../../domain/csv";
import { BadRequestError, NoDataError, ServiceError } from "../../domain/errors";
import type { PairRate } from "../../domain/fx/rates";
import { dayBefore } from "../../domain/ingest-plan";
import type { IngestReport } from "../../domain/ingest-report";
import { catalogueVenue, missingSessionsReason } from "../../domain/market-hours";
import { type Period, type PeriodWindow, tenYearsBefore, windowOf } from "../../domain/periods";
import { REPAIRABLE, type Repair, repairBars } from "../../domain/price-repair";
import type { Finding } from "../../domain/price-sanity";
import { STREAM } from "../../domain/provider-names";
import type { StoredPrecision } from "../../domain/provider-precision";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { givenRange } from "../date-range";
import { type ConversionNote, convertDailyBars } from "../fx/convert";
import { convertedVariant, FX_PROVISIONAL_HEADER } from "../fx/converted-answers";
import { refuseClosedWindow } from "../shared/closed-window";
import { readThrough } from "../shared/read-through";
import { resolveListingWithPrices } from "../shared/resolve-listing";
import { StillRunningError } from "../shared/single-flight";
import { ingestListing } from "./ingest-listing";

export interface EodQuery {
  ticker: string;
  period?: Period;
  from?: string;
  to?: string;
  fmt: "json" | "csv";
  order: "a" | "d";
  currency?: string;
  exchange?: string;
  isin?: string;
  /** Serve the series with the repairable findings applied (price-sanity REPAIRABLE). */
  repair?: boolean;
  /** Answer in this currency: each daily bar at its day's rate (services/fx/convert). */
  convert?: string;
}

/** A rendered answer, cached as it is sent: its body and the headers that carry what the CSV form has no room for. */
export interface EodAnswer {
  contentType: string;
  body: string;
  headers: Record<string, string>;
}

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

/** The bars of the answer, the findings that concern them, what a repair changed, and a conversion. */
interface Shaped {
  bars: Bar[];
  warnings: Finding[];
  repaired: Repair[] | null;
  precision: StoredPrecision | "unchecked";
  fx: ShapedConversion | null;
}

/** A converted answer's rate of each bar (a weekly or monthly bar's is its close's day's) and what it says. */
interface ShapedConversion {
  rates: PairRate[];
  note: ConversionNote;
  provisional: boolean;
}

/**
 * The window's bars as answered: repaired when asked (the stored bars stay as they are), converted
 * when asked (each daily bar at its day's rate), resampled from those daily bars, in the order
 * asked; the net's findings among the window's daily bars (dates from the first to the last, or
 * the window's own ends) as warnings.
 */
async function shape(
  ctx: Context,
  q: EodQuery,
  window: PeriodWindow,
  read: WindowBars,
  listing: ListingRow,
): Promise<Shaped> {
  const { bars: fixed, repaired } = q.repair
    ? repairBars(read.bars, read.findings)
    : { bars: read.bars, repaired: null };
  const from = window.from ?? read.bars[0]?.date ?? "";
  const to = window.to ?? read.bars.at(-1)?.date ?? "";
  const warnings = read.findings.filter((f) => f.date >= from && f.date <= to);
  const converted = q.convert ? await convertDailyBars(ctx, listing, fixed, q.convert) : null;
  const bars = resample(converted?.bars ?? fixed, window.resolution);
  const fx = converted
    ? {
        rates: closingRates(converted.bars, bars, converted.rates, window.resolution),
        note: converted.conversion,
        provisional: converted.provisional,
      }
    : null;
  if (q.order === "d") {
    bars.reverse();
    fx?.rates.reverse();
  }
  return { bars, warnings, repaired, precision: read.precision, fx };
}

/** The rate of each answered bar: its own day's, or for a weekly or monthly bar its last day's (its close's). */
function closingRates(
  daily: readonly Bar[],
  answered: readonly Bar[],
  rates: ReadonlyMap<string, PairRate>,
  resolution: Resolution,
): PairRate[] {
  if (resolution === "daily") return answered.map((b) => rates.get(b.date) as PairRate);
  const lastOf = new Map<string, string>();
  for (const b of daily) lastOf.set(periodKey(b.date, resolution), b.date);
  return answered.map((b) => rates.get(lastOf.get(periodKey(b.date, resolution)) ?? "") as PairRate);
}

const PRECISION_NOTE: Record<Shaped["precision"], string> = {
  full: "every decimal the provider gave (its float32 prices, up to 9 significant digits)",
  price_hint: "rounded to the provider's price hint when stored; the next ingestion stores them again in full",
  unchecked: "not yet checked (stored before the checks ran); the next ingestion checks them",
};

/** A bar's rate as the JSON answer carries it. */
const barRate = (r: PairRate | undefined) =>
  r ? { rate: r.rate, published: r.published, source: r.source, carried_forward: r.carried_forward } : null;

/** What the CSV form has no room for, in headers (the JSON form carries the same in its body). */
function headersOf(s: Shaped): Record<string, string> {
  const kinds = new Map<string, number>();
  for (const w of s.warnings) kinds.set(w.kind, (kinds.get(w.kind) ?? 0) + 1);
  return {
    "x-price-precision": s.precision,
    "x-price-warnings": String(s.warnings.length),
    ...(kinds.size ? { "x-price-warning-kinds": [...kinds].map(([k, n]) => `${k}=${n}`).join(", ") } : {}),
    ...(s.repaired ? { "x-price-repaired": String(s.repaired.length) } : {}),
    ...(s.fx
      ? {
          "x-fx-conversion": `${s.fx.note.from}->${s.fx.note.to}`,
          "x-fx-source": s.fx.note.source,
          ...(s.fx.provisional ? { [FX_PROVISIONAL_HEADER]: "true" } : {}),
        }
      : {}),
  };
}

function render(q: EodQuery, label: string, listing: ListingRow, s: Shaped, dataSource: string, now: Date): EodAnswer {
  const headers = headersOf(s);
  if (q.fmt === "csv")
    return {
      contentType: "text/csv; charset=utf-8",
      body: s.fx ? convertedBarsToCsv(s.bars, s.fx.rates) : barsToCsv(s.bars),
      headers,
    };
  const answer = {
    ticker: q.ticker,
    listing: { ticker: listing.ticker, isin: listing.isin, currency: listing.currency, exchange: listing.exchange },
    period: label,
    format: "json",
    count: s.bars.length,
    retrieved_at: isoWithOffset(now),
    data_source: dataSource,
    precision: { stored: s.precision, note: PRECISION_NOTE[s.precision] },
    warnings: s.warnings.map((w) => ({
      date: w.date,
      kind: w.kind,
      repairable: REPAIRABLE.has(w.kind),
      evidence: w.evidence,
    })),
    ...(s.repaired ? { repaired: s.repaired } : {}),
    ...(s.fx ? { conversion: s.fx.note } : {}),
    data: s.bars.map((b, i) => ({
      Date: b.date,
      Open: b.open,
      High: b.high,
      Low: b.low,
      Close: b.close,
      "Adj Close": b.adjClose,
      Volume: b.volume,
      ...(s.fx ? { fx: barRate(s.fx.rates[i]) } : {}),
    })),
  };
  return { contentType: "application/json; charset=utf-8", body: JSON.stringify(answer), headers };
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

/** Bars of the window, whether any came from the stream provider (the answer is then provisional), findings and precision. */
type WindowBars = Pick<ListingPrices, "bars" | "windowHasSource" | "findings" | "precision">;

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
