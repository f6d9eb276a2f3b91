import { cacheKeys, cacheTtls } from "../../cache";
import { findActiveListings, type ListingRow } from "../../db/repositories/catalogue";
import { screenSnapshots } from "../../db/repositories/indicator-snapshots";
import { readLastBarsOfListings } from "../../db/repositories/prices";
import type { Deps } from "../../deps";
import { resample } from "../../domain/bars";
import { toDecimalString } from "../../domain/decimal";
import { BadRequestError } from "../../domain/errors";
import { type IndicatorSpec, indicatorSpec, minBars, type Params } from "../../domain/indicators/catalogue";
import { paramsFromQuery, type Resolution } from "../../domain/indicators/request";
import { seriesOfBars } from "../../domain/indicators/series";
import { isSnapshotted, paramsKey } from "../../domain/indicators/snapshots";
import { compareListings } from "../../domain/listing-choice";
import { readThrough } from "../shared/read-through";

export const OPERATORS = {
  lt: (a: number, b: number) => a < b,
  gt: (a: number, b: number) => a > b,
  lte: (a: number, b: number) => a <= b,
  gte: (a: number, b: number) => a >= b,
} as const;
export type Operator = keyof typeof OPERATORS;

export interface ScreenQuery {
  indicator: string;
  operator: Operator;
  value: number;
  resolution: Resolution;
  period: number;
  limit: number;
}

export interface ScreenResult {
  indicator: string;
  params: Params;
  operator: Operator;
  value: number;
  resolution: Resolution;
  matches: { ticker: string; name: string; isin: string; value: string }[];
  total: number;
  /** Instruments whose last value was tested. */
  screened: number;
  /** Instruments without enough stored bars for the indicator, left out. */
  skipped: number;
  calculated_at: string;
}

/** Daily bars read per listing for each resolution, so a weekly or monthly series still has `limit` bars. */
const DAILY_BARS_PER = { "1D": 1, "1W": 5, "1M": 23 } as const;

/** Each catalogue instrument once: its preferred active listing (the /eod choice rules). */
function preferredPerInstrument(listings: readonly ListingRow[]): ListingRow[] {
  const byAsset = new Map<number, ListingRow>();
  for (const l of [...listings].sort(compareListings)) if (!byAsset.has(l.assetId)) byAsset.set(l.assetId, l);
  return [...byAsset.values()];
}

/**
 * GET /technical/screen: the catalogue instruments whose last indicator value meets `operator value`,
 * computed over the same number of bars as GET /technical/{ticker} (TECHNICAL_DEFAULT_LIMIT), so both
 * give the same last value. All candidates' prices come in one query. Cached 15 minutes.
 */
export async function screen({ ctx, input }: { ctx: Deps; input: ScreenQuery }): Promise<ScreenResult> {
  const spec = indicatorSpec(input.indicator);
  if (!spec) throw new BadRequestError(`Unknown indicator '${input.indicator}'`);
  if (input.resolution === "1min" || spec.intradayOnly)
    throw new BadRequestError(
      "The screener runs on daily, weekly or monthly bars (resolution 1D, 1W or 1M); VWAP needs intraday bars",
    );
  const resolution = input.resolution;
  const parsed = paramsFromQuery(spec, { period: input.period });
  if (!parsed.ok) throw new BadRequestError(parsed.error);
  const params = parsed.value;
  const key = cacheKeys.screener(
    [spec.name, JSON.stringify(params), input.operator, input.value, input.resolution, input.limit].join(":"),
  );
  const declared = resolution === "1D" && isSnapshotted(spec.name, params);
  return (
    await readThrough(ctx, {
      key,
      ttlSeconds: cacheTtls(ctx.config).screener,
      build: () =>
        declared ? screenSnapshotted(ctx, input, spec, params) : runScreen(ctx, { ...input, resolution }, spec, params),
    })
  ).value;
}

/**
 * A declared indicator and length on daily bars: one indexed query over the snapshots written
 * after each listing's bars changed (the same values runScreen would compute).
 */
async function screenSnapshotted(
  ctx: Deps,
  input: ScreenQuery,
  spec: IndicatorSpec,
  params: Params,
): Promise<ScreenResult> {
  const r = await screenSnapshots(ctx.db.db, {
    indicator: spec.name,
    params: paramsKey(params),
    windowBars: ctx.config.TECHNICAL_DEFAULT_LIMIT,
    operator: input.operator,
    value: input.value,
    limit: input.limit,
  });
  return {
    indicator: spec.name,
    params,
    operator: input.operator,
    value: input.value,
    resolution: "1D",
    matches: r.matches.map((m) => ({ ticker: m.ticker, name: m.name, isin: m.isin, value: toDecimalString(m.value) })),
    total: r.total,
    screened: r.screened,
    skipped: r.candidates - r.screened,
    calculated_at: ctx.clock.now().toISOString(),
  };
}

/**
 * The screen of any other indicator, length or resolution: every instrument's preferred listing and
 * its newest bars (the window GET /technical/{ticker} computes over), computed here.
 */
async function runScreen(
  ctx: Deps,
  input: ScreenQuery & { resolution: Exclude<Resolution, "1min"> },
  spec: IndicatorSpec,
  params: Params,
): Promise<ScreenResult> {
  const db = ctx.db.db;
  const bars = ctx.config.TECHNICAL_DEFAULT_LIMIT;
  const candidates = preferredPerInstrument(await findActiveListings(db, {}));
  const stored = await readLastBarsOfListings(
    db,
    candidates.map((c) => c.id),
    bars * DAILY_BARS_PER[input.resolution],
  );
  const test = OPERATORS[input.operator];
  const found: { listing: ListingRow; value: number }[] = [];
  let skipped = 0;
  for (const listing of candidates) {
    const daily = stored.get(listing.id) ?? [];
    const shaped =
      input.resolution === "1D"
        ? daily
        : resample(daily, input.resolution === "1W" ? "weekly" : "monthly").slice(-bars);
    if (shaped.length < minBars(spec, params)) {
      skipped += 1;
      continue;
    }
    const last = spec.compute(seriesOfBars(shaped), params)[0]?.[shaped.length - 1];
    if (last !== undefined && !Number.isNaN(last) && test(last, input.value)) found.push({ listing, value: last });
  }
  // Most extreme first: lowest values for lt/lte, highest for gt/gte.
  found.sort((a, b) => (input.operator.startsWith("l") ? a.value - b.value : b.value - a.value));
  const result: ScreenResult = {
    indicator: spec.name,
    params,
    operator: input.operator,
    value: input.value,
    resolution: input.resolution,
    matches: found.slice(0, input.limit).map(({ listing, value }) => ({
      ticker: listing.ticker,
      name: listing.name,
      isin: listing.isin,
      value: toDecimalString(value),
    })),
    total: found.length,
    screened: candidates.length - skipped,
    skipped,
    calculated_at: ctx.clock.now().toISOString(),
  };
  return result;
}
