import type { Bar } from "../bars";

/**
 * Prices as the indicator engine reads them: one Float64Array per field, oldest first, and the bar
 * times (ISO 8601 UTC). Outputs are Float64Arrays of the same length with NaN where TA-Lib has no
 * value yet (the warm-up); the API turns NaN into null.
 */
export interface PriceSeries {
  times: string[];
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

/** Daily (or aggregated) bars as a series; a bar's time is its date at 00:00 UTC. */
export function seriesOfBars(bars: readonly Bar[]): PriceSeries {
  const n = bars.length;
  const s: PriceSeries = { times: new Array<string>(n), open: new Float64Array(n), high: new Float64Array(n), low: new Float64Array(n), close: new Float64Array(n), volume: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const b = bars[i] as Bar;
    s.times[i] = `${b.date}T00:00:00Z`;
    s.open[i] = b.open;
    s.high[i] = b.high;
    s.low[i] = b.low;
    s.close[i] = b.close;
    s.volume[i] = b.volume;
  }
  return s;
}

/** An output array with no value anywhere yet. */
export function emptyOutput(n: number): Float64Array {
  return new Float64Array(n).fill(Number.NaN);
}
