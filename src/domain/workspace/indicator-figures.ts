import { indicatorSpec } from "../indicators/catalogue";
import type { Candle, Line, MarketChart, Pane } from "./figures";

/**
 * Where a trader expects an indicator: averages and bands (the trend family, Bollinger, Keltner)
 * over the price, in its units; oscillators and volume studies each in a pane of their own, with
 * their usual guide levels.
 */
const OVER_PRICE = new Set(["bbands", "kc"]);
const GUIDES: Record<string, number[]> = { rsi: [30, 70], stoch: [20, 80], mfi: [20, 80], cci: [-100, 100] };

/** The catalogue name of `sma_20`, `macd_signal` or `RSI`: the part before the first underscore. */
const baseName = (key: string) => key.trim().toLowerCase().split("_")[0] ?? "";

export function overPrice(key: string): boolean {
  const name = baseName(key);
  return indicatorSpec(name)?.category === "trend" || OVER_PRICE.has(name);
}

/** An indicator result as the technical routes answer it: each output a series of (t, decimal string). */
export interface IndicatorSeries {
  indicator: string;
  params: Record<string, number>;
  series: { name: string; label: string; values: { t: string; v: string | null }[] }[];
}

/**
 * A result's key as a user would write it: the name and its parameters' values (`sma_20`,
 * `macd_12_26_9`), so that two lengths of one indicator stay apart.
 */
export const resultKey = (r: Pick<IndicatorSeries, "indicator" | "params">) =>
  [r.indicator, ...Object.values(r.params).map((v) => String(v))].join("_");

const day = (t: string) => (t.length > 10 && t.endsWith("T00:00:00Z") ? t.slice(0, 10) : t);

/** An indicator's outputs as lines, named `SMA 20` or `MACD: Signal`. */
function linesOf(r: IndicatorSeries, title: string): Line[] {
  return r.series.map((s) => ({
    name: r.series.length > 1 ? `${title}: ${s.label}` : title,
    x: s.values.map((v) => day(v.t)),
    y: s.values.map((v) => (v.v === null ? null : Number(v.v))),
  }));
}

/** `sma_20` as `SMA 20`. */
export const titleOf = (key: string) => key.toUpperCase().split("_").join(" ");

/**
 * A price chart with indicator results: the candles, each result over the price or in its own
 * pane below.
 */
export function indicatorChart(
  candles: Candle[],
  results: readonly IndicatorSeries[],
  priceLabel?: string,
): MarketChart {
  const overlays: Line[] = [];
  const panes: Pane[] = [];
  for (const r of results) {
    const title = titleOf(resultKey(r));
    const lines = linesOf(r, title);
    if (overPrice(r.indicator)) overlays.push(...lines);
    else panes.push({ title, lines, guides: GUIDES[baseName(r.indicator)] });
  }
  return { candles, overlays, panes, priceLabel };
}

/**
 * The chart route's aligned columns as a chart. The route names a column as asked, lower-cased
 * (`sma_20`), with the output appended for indicators of several (`macd_signal`); `volume` is the
 * volume pane already. Each asked indicator is drawn once, its columns sharing its pane.
 */
export function columnsChart(
  candles: Candle[],
  columns: Record<string, readonly (number | null)[]>,
  asked: readonly string[],
): MarketChart {
  const dates = candles.map((c) => c.date);
  const overlays: Line[] = [];
  const panes: Pane[] = [];
  for (const key of new Set(asked.map((a) => a.trim().toLowerCase()))) {
    const spec = indicatorSpec(baseName(key));
    if (!spec) continue;
    const names = spec.outputs.length === 1 ? [key] : spec.outputs.map((o) => `${key}_${o.name}`);
    const lines = names
      .filter((n) => columns[n] !== undefined)
      .map((n) => ({ name: titleOf(n), x: dates, y: columns[n] ?? [] }));
    if (lines.length === 0) continue;
    if (overPrice(key)) overlays.push(...lines);
    else panes.push({ title: titleOf(key), lines, guides: GUIDES[baseName(key)] });
  }
  return { candles, overlays, panes };
}
