import { toDecimalString } from "../../domain/decimal";
import { UnprocessableError } from "../../domain/errors";
import { minBars } from "../../domain/indicators/catalogue";
import type { WindowedSeries } from "../../domain/indicators/history";
import type { IndicatorRequest, Resolution } from "../../domain/indicators/request";
import type { PriceSeries } from "../../domain/indicators/series";
import type { Params } from "../../domain/indicators/spec";

/** The spec's Indicator result. */
export interface IndicatorResult {
  ticker: string;
  indicator: string;
  resolution: Resolution;
  category: string;
  params: Params;
  from_date: string | null;
  to_date: string | null;
  count: number;
  series: { name: string; label: string; values: { t: string; v: string | null }[] }[];
  cached: boolean;
  calculated_at: string;
}

/** 422 with the number of bars needed, when the stored history is too short for the parameters. */
export function assertEnoughBars(req: IndicatorRequest, series: PriceSeries): void {
  const needed = minBars(req.spec, req.params);
  const have = series.close.length;
  if (have < needed) {
    throw new UnprocessableError(`${req.key} needs at least ${needed} bars; ${have} are stored`, [
      { path: "bars", message: `required ${needed}, stored ${have}` },
    ]);
  }
}

/** Computes one indicator over the whole history (raw outputs, NaN during the warm-up). */
export function computeOutputs(req: IndicatorRequest, series: WindowedSeries): Float64Array[] {
  assertEnoughBars(req, series.history);
  return req.spec.compute(series.history, req.params);
}

/** The answered bars' values of outputs computed over the history. */
export const shownOutput = (out: Float64Array | undefined, series: WindowedSeries): Float64Array =>
  out ? out.subarray(series.first) : new Float64Array(series.history.times.length - series.first).fill(Number.NaN);

/** The outputs as the spec's Indicator result over the answered bars: one series per output, `v` a decimal string or null. */
export function toIndicatorResult(
  ticker: string,
  resolution: Resolution,
  req: IndicatorRequest,
  series: WindowedSeries,
  outputs: Float64Array[],
  calculatedAt: Date,
): IndicatorResult {
  const times = series.history.times.slice(series.first);
  return {
    ticker,
    indicator: req.spec.name,
    resolution,
    category: req.spec.category,
    params: req.params,
    from_date: times[0] ?? null,
    to_date: times.at(-1) ?? null,
    count: times.length,
    series: req.spec.outputs.map((o, k) => {
      const out = shownOutput(outputs[k], series);
      return {
        name: o.name,
        label: o.label,
        values: times.map((t, i) => ({
          t,
          v: Number.isNaN(out[i] as number) ? null : toDecimalString(out[i] as number),
        })),
      };
    }),
    cached: false,
    calculated_at: calculatedAt.toISOString(),
  };
}
