import { cacheKeys, cacheTtls } from "../../cache";
import { type ScreenMatch, screenSnapshots } from "../../db/repositories/indicator-snapshots";
import { readScreenBars, type ScreenRow } from "../../db/repositories/screen-bars";
import type { Deps } from "../../deps";
import { type Bar, dailyBarsFor, newestPeriods } from "../../domain/bars";
import { toDecimalString } from "../../domain/decimal";
import { BadRequestError } from "../../domain/errors";
import {
  type IndicatorSpec,
  indicatorSpec,
  lastValueBars,
  minBars,
  type Params,
  type PriceField,
} from "../../domain/indicators/catalogue";
import { HISTORY_BARS } from "../../domain/indicators/history";
import { paramsFromQuery, type Resolution } from "../../domain/indicators/request";
import { seriesOfBars } from "../../domain/indicators/series";
import { isSnapshotted, paramsKey } from "../../domain/indicators/snapshots";
import { missingSession } from "../../domain/venues";
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
  matches: {
    ticker: string;
    name: string;
    isin: string;
    value: string;
    /** The last stored daily bar the value is computed to, and its close. */
    as_of: string;
    close: string | null;
    /** The venue's last closed session when the instrument's bars stop before it (its refresh is behind), else null. */
    missing_session: string | null;
  }[];
  total: number;
  /** Instruments whose last value was tested. */
  screened: number;
  /** Instruments without enough stored bars for the indicator, left out. */
  skipped: number;
  calculated_at: string;
}

/**
 * GET /technical/screen: the catalogue instruments whose last indicator value meets `operator value`,
 * the last value GET /technical/{ticker} gives (computed over the stored history, whatever the
 * window): from the snapshots for a declared indicator, else from each instrument's bars read at
 * once. Cached 15 minutes.
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
    windowBars: HISTORY_BARS,
    operator: input.operator,
    value: input.value,
    limit: input.limit,
  });
  return resultOf(ctx, { ...input, resolution: "1D" }, spec, params, {
    matches: r.matches,
    total: r.total,
    screened: r.screened,
    skipped: r.candidates - r.screened,
  });
}

/**
 * The screen of any other indicator, length or resolution: every instrument's preferred listing
 * with only the bars its last value is computed over (a windowed indicator's own window; for the
 * others the stored history GET /technical/{ticker} computes over, weekly and monthly bars aggregated from whole
 * periods of daily bars), in one read, computed here: the ticker route's last value, bit for bit.
 */
async function runScreen(
  ctx: Deps,
  input: ScreenQuery & { resolution: Exclude<Resolution, "1min"> },
  spec: IndicatorSpec,
  params: Params,
): Promise<ScreenResult> {
  const need = lastValueBars(spec, params, HISTORY_BARS);
  const period = input.resolution === "1D" ? null : input.resolution === "1W" ? "weekly" : "monthly";
  const days = period ? dailyBarsFor(need, period) : need;
  // The dates and closes too: each match says the bar it is computed to.
  const fields = [...new Set(["date", "close", ...spec.inputs] as const)];
  const rows = await readScreenBars(ctx.db.db, { bars: days, fields });
  const test = OPERATORS[input.operator];
  const found: { row: ScreenRow; value: number; last: Bar }[] = [];
  let skipped = 0;
  for (const row of rows) {
    const daily = barsOfColumns(row.columns);
    const bars = period ? newestPeriods(daily, period, need, daily.length === days) : daily;
    if (bars.length < minBars(spec, params)) {
      skipped += 1;
      continue;
    }
    const value = spec.compute(seriesOfBars(bars), params)[0]?.[bars.length - 1];
    const last = daily.at(-1);
    if (value !== undefined && !Number.isNaN(value) && last && test(value, input.value))
      found.push({ row, value, last });
  }
  // Most extreme first: lowest values for lt/lte, highest for gt/gte; then by ticker and ISIN in
  // byte order (as the snapshot screen orders them).
  const sign = input.operator.startsWith("l") ? 1 : -1;
  const byBytes = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  found.sort(
    (a, b) => sign * (a.value - b.value) || byBytes(a.row.ticker, b.row.ticker) || byBytes(a.row.isin, b.row.isin),
  );
  return resultOf(ctx, input, spec, params, {
    matches: found.slice(0, input.limit).map(({ row, value, last }) => ({
      ticker: row.ticker,
      name: row.name,
      isin: row.isin,
      exchange: row.exchange,
      value,
      asOf: last.date,
      close: toDecimalString(last.close),
    })),
    total: found.length,
    screened: rows.length - skipped,
    skipped,
  });
}

/** The answer of either path: the query, the matches with their values as decimal strings, the counts. */
function resultOf(
  ctx: Deps,
  input: ScreenQuery & { resolution: Exclude<Resolution, "1min"> },
  spec: IndicatorSpec,
  params: Params,
  r: {
    matches: readonly ScreenMatch[];
    total: number;
    screened: number;
    skipped: number;
  },
): ScreenResult {
  return {
    indicator: spec.name,
    params,
    operator: input.operator,
    value: input.value,
    resolution: input.resolution,
    matches: r.matches.map((m) => ({
      ticker: m.ticker,
      name: m.name,
      isin: m.isin,
      value: toDecimalString(m.value),
      as_of: m.asOf,
      close: m.close === null ? null : toDecimalString(Number(m.close)),
      missing_session: missingSession(m.exchange, m.asOf, ctx.clock.now()),
    })),
    total: r.total,
    screened: r.screened,
    skipped: r.skipped,
    calculated_at: ctx.clock.now().toISOString(),
  };
}

/** Bars from the read's columns; the fields an indicator does not read are the close (volume 0), unread. */
function barsOfColumns(c: ScreenRow["columns"]): Bar[] {
  const close = (c.close ?? []) as number[];
  const at = (f: PriceField, i: number) =>
    (c[f]?.[i] as number | undefined) ?? (f === "volume" ? 0 : (close[i] as number));
  return close.map((value, i) => ({
    date: (c.date?.[i] as string | undefined) ?? "",
    open: at("open", i),
    high: at("high", i),
    low: at("low", i),
    close: value,
    adjClose: value,
    volume: at("volume", i),
  }));
}
