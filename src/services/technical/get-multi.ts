import { BadRequestError, ServiceError } from "../../domain/errors";
import { costProblem } from "../../domain/indicators/cost";
import { shownSeries, type WindowedSeries } from "../../domain/indicators/history";
import { type IndicatorRequest, parseIndicator, type Resolution } from "../../domain/indicators/request";
import type { PriceSeries } from "../../domain/indicators/series";
import type { Context } from "../../platform/context";
import { checkIndicatorFits, rememberTechnical } from "./get-indicator";
import { loadSeries, type SeriesWindow } from "./load-series";
import { computeOutputs, type IndicatorResult, toIndicatorResult } from "./result";

export interface MultiQuery extends SeriesWindow {
  ticker: string;
  indicators: string[];
  includeOhlcv: boolean;
}

export interface IndicatorError {
  indicator: string;
  error: string;
}

export interface OhlcvBar {
  t: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface MultiResult {
  ticker: string;
  resolution: Resolution;
  count: number;
  indicators: IndicatorResult[];
  errors: IndicatorError[];
  ohlcv?: OhlcvBar[];
}

/**
 * Parses `sma_50,rsi,...` (a name given twice counts once); unknown names and bad parameters become
 * errors, not failures. The number of names is bounded by cost once the series is known
 * (`checkCost`); the batch route also caps it (the spec's TECHNICAL_MAX_BATCH_INDICATORS).
 */
export function parseIndicatorList(names: readonly string[]): {
  requests: IndicatorRequest[];
  errors: IndicatorError[];
} {
  const requests: IndicatorRequest[] = [];
  const errors: IndicatorError[] = [];
  for (const name of new Set(names)) {
    const parsed = parseIndicator(name);
    if (parsed.ok) requests.push(parsed.value);
    else errors.push({ indicator: name, error: parsed.error });
  }
  return { requests, errors };
}

/** A 400 when computing `requests` over the history would cost more than the bound (domain/indicators/cost). */
export function checkCost(requests: readonly IndicatorRequest[], series: WindowedSeries): void {
  const problem = costProblem(requests, series.history.times.length);
  if (problem) throw new BadRequestError(problem);
}

/** Each request computed over the same history; a failing one is reported in `errors`. */
export function computeAll(
  requests: readonly IndicatorRequest[],
  series: WindowedSeries,
  resolution: Resolution,
  onResult: (req: IndicatorRequest, outputs: Float64Array[]) => void,
): IndicatorError[] {
  const errors: IndicatorError[] = [];
  for (const req of requests) {
    const misfit = checkIndicatorFits(req, resolution);
    if (misfit) {
      errors.push({ indicator: req.key, error: misfit });
      continue;
    }
    try {
      onResult(req, computeOutputs(req, series));
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      errors.push({ indicator: req.key, error: err.message });
    }
  }
  return errors;
}

/** The series, or the reason there is none (no listing, no prices): multi answers report it instead of failing. */
export async function seriesOrReason(
  ctx: Context,
  q: Omit<MultiQuery, "indicators" | "includeOhlcv">,
): Promise<WindowedSeries | string> {
  try {
    return (
      await loadSeries({
        ctx,
        input: {
          ticker: q.ticker,
          resolution: q.resolution,
          fromDate: q.fromDate,
          toDate: q.toDate,
          limit: q.limit ?? ctx.config.TECHNICAL_DEFAULT_LIMIT,
        },
      })
    ).series;
  } catch (err) {
    // A ticker the key may not add now (its budget of additions spent) is that ticker's error, not the batch's.
    if (
      err instanceof ServiceError &&
      (err.code === "NOT_FOUND" || err.code === "NO_DATA" || err.code === "RATE_LIMITED")
    )
      return err.extra.reason ? `${err.message}: ${err.extra.reason}` : err.message;
    throw err;
  }
}

const ohlcvOf = (s: PriceSeries): OhlcvBar[] =>
  s.times.map((t, i) => ({
    t,
    open: s.open[i] as number,
    high: s.high[i] as number,
    low: s.low[i] as number,
    close: s.close[i] as number,
    volume: s.volume[i] as number,
  }));

/** GET /technical/{ticker}/multi (and each ticker of POST /technical/batch): several indicators on one price read. */
export async function getMulti({ ctx, input }: { ctx: Context; input: MultiQuery }): Promise<MultiResult> {
  const load = async (): Promise<MultiResult> => {
    const { requests, errors } = parseIndicatorList(input.indicators);
    const series = await seriesOrReason(ctx, input);
    if (typeof series === "string")
      return {
        ticker: input.ticker,
        resolution: input.resolution,
        count: 0,
        indicators: [],
        errors: [...errors, { indicator: "*", error: series }],
        ...(input.includeOhlcv ? { ohlcv: [] } : {}),
      };
    checkCost(requests, series);
    const indicators: IndicatorResult[] = [];
    errors.push(
      ...computeAll(requests, series, input.resolution, (req, outputs) =>
        indicators.push(toIndicatorResult(input.ticker, input.resolution, req, series, outputs, ctx.clock.now())),
      ),
    );
    return {
      ticker: input.ticker,
      resolution: input.resolution,
      count: series.history.times.length - series.first,
      indicators,
      errors,
      ...(input.includeOhlcv ? { ohlcv: ohlcvOf(shownSeries(series)) } : {}),
    };
  };
  const variant = [
    "multi",
    input.indicators,
    input.fromDate ?? "",
    input.toDate ?? "",
    input.limit ?? ctx.config.TECHNICAL_DEFAULT_LIMIT,
    input.includeOhlcv,
  ];
  // An answer that found no prices is not cached: the next request may find them.
  const { value, hit } = await rememberTechnical(ctx, input.ticker, input.resolution, variant, load, hasPrices);
  // Each indicator of a cached answer says so, as the single route's answer does.
  return hit ? { ...value, indicators: value.indicators.map((r) => ({ ...r, cached: true })) } : value;
}

/** Whether a multi or chart answer was computed on prices (one that reports none is not cached). */
export const hasPrices = (r: { errors: IndicatorError[] }) => !r.errors.some((e) => e.indicator === "*");
