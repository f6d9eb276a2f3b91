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
  series: { name: string; label: string; values: { t: string; v: string | null }[] }[];
}

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
    const lines = linesOf(r, titleOf(r.indicator));
    if (overPrice(r.indicator)) overlays.push(...lines);
    else panes.push({ title: titleOf(r.indicator), lines, guides: GUIDES[baseName(r.indicator)] });
  }
  return { candles, overlays, panes, priceLabel };
}

/**
 * The chart route's aligned columns as a chart: `volume` is the volume pane already; columns of one
 * indicator (`macd`, `macd_signal`, `macd_histogram`) share its pane.
 */
export function columnsChart(
  candles: Candle[],
  columns: Record<string, readonly (number | null)[]>,
  asked: readonly string[],
): MarketChart {
  const dates = candles.map((c) => c.date);
  const overlays: Line[] = [];
  const panes: Pane[] = [];
  for (const key of asked) {
    if (baseName(key) === "volume") continue;
    const own = Object.keys(columns).filter((c) => c === key || c.startsWith(`${key}_`));
    const lines = own.map((c) => ({ name: titleOf(c), x: dates, y: columns[c] ?? [] }));
    if (lines.length === 0) continue;
    if (overPrice(key)) overlays.push(...lines);
    else panes.push({ title: titleOf(key), lines, guides: GUIDES[baseName(key)] });
  }
  return { candles, overlays, panes };
}
