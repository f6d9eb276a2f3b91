import { shownSeries } from "../../domain/indicators/history";
import type { Resolution } from "../../domain/indicators/request";
import type { Context } from "../../platform/context";
import { rememberTechnical } from "./get-indicator";
import { checkCost, computeAll, hasPrices, type IndicatorError, parseIndicatorList, seriesOrReason } from "./get-multi";
import type { SeriesWindow } from "./load-series";
import { shownOutput } from "./result";

export interface ChartQuery extends SeriesWindow {
  ticker: string;
  indicators: string[];
}

export interface ChartResult {
  ticker: string;
  resolution: Resolution;
  timestamps: string[];
  ohlcv: { open: number[]; high: number[]; low: number[]; close: number[]; volume: number[] };
  indicators: Record<string, (number | null)[]>;
  errors: IndicatorError[];
}

/** Chart answers default to the last 200 bars (spec). */
export const CHART_DEFAULT_LIMIT = 200;

/** Chart columns are JSON numbers: rounded to 10 decimals like the decimal strings of the other routes. */
const column = (a: Float64Array): (number | null)[] =>
  Array.from(a, (x) => (Number.isNaN(x) ? null : Math.round(x * 1e10) / 1e10));

/** Daily and coarser bars are labelled by their date; 1-minute bars by their time. */
const label = (t: string, resolution: Resolution) => (resolution === "1min" ? t : t.slice(0, 10));

/**
 * GET /technical/{ticker}/chart: bars and indicator columns on the same timestamps. A column is
 * named as asked (`sma_20`), with the output appended for several outputs (`macd_signal`);
 * `volume` is the volume column itself.
 */
export async function getChart({ ctx, input }: { ctx: Context; input: ChartQuery }): Promise<ChartResult> {
  const variant = [
    "chart",
    input.indicators,
    input.fromDate ?? "",
    input.toDate ?? "",
    input.limit ?? CHART_DEFAULT_LIMIT,
  ];
  return (
    await rememberTechnical(ctx, input.ticker, input.resolution, variant, () => computeChart(ctx, input), hasPrices)
  ).value;
}

async function computeChart(ctx: Context, input: ChartQuery): Promise<ChartResult> {
  const wantsVolume = input.indicators.some((n) => n.trim().toLowerCase() === "volume");
  const { requests, errors } = parseIndicatorList(input.indicators.filter((n) => n.trim().toLowerCase() !== "volume"));
  const series = await seriesOrReason(ctx, { ...input, limit: input.limit ?? CHART_DEFAULT_LIMIT });
  if (typeof series === "string") {
    return {
      ticker: input.ticker,
      resolution: input.resolution,
      timestamps: [],
      ohlcv: { open: [], high: [], low: [], close: [], volume: [] },
      indicators: {},
      errors: [...errors, { indicator: "*", error: series }],
    };
  }
  checkCost(requests, series);
  const indicators: Record<string, (number | null)[]> = {};
  errors.push(
    ...computeAll(requests, series, input.resolution, (req, outputs) => {
      req.spec.outputs.forEach((o, k) => {
        indicators[req.spec.outputs.length === 1 ? req.key : `${req.key}_${o.name}`] = column(
          shownOutput(outputs[k], series),
        );
      });
    }),
  );
  const shown = shownSeries(series);
  if (wantsVolume) indicators.volume = Array.from(shown.volume);
  return {
    ticker: input.ticker,
    resolution: input.resolution,
    timestamps: shown.times.map((t) => label(t, input.resolution)),
    ohlcv: {
      open: Array.from(shown.open),
      high: Array.from(shown.high),
      low: Array.from(shown.low),
      close: Array.from(shown.close),
      volume: Array.from(shown.volume),
    },
    indicators,
    errors,
  };
}
