import type { Bar } from "../bars";

/**
 * Prices as the indicator engine reads them: one Float64Array per field, oldest first, the bar
 * times (ISO 8601 UTC, for answers) and the same times in epoch milliseconds (for computing).
 * Outputs are Float64Arrays of the same length with NaN where TA-Lib has no value yet (the
 * warm-up); the API turns NaN into null.
 */
export interface PriceSeries {
  times: string[];
  epochs: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

/** Columns as arrays (times ISO 8601): the form tests, benchmarks and the intraday reader have. */
export function seriesOfColumns(c: {
  times: string[];
  open: ArrayLike<number>;
  high: ArrayLike<number>;
  low: ArrayLike<number>;
  close: ArrayLike<number>;
  volume: ArrayLike<number>;
}): PriceSeries {
  return {
    times: c.times,
    epochs: Float64Array.from(c.times, (t) => Date.parse(t)),
    open: Float64Array.from(c.open),
    high: Float64Array.from(c.high),
    low: Float64Array.from(c.low),
    close: Float64Array.from(c.close),
    volume: Float64Array.from(c.volume),
  };
}

/** Daily (or aggregated) bars as a series; a bar's time is its date at 00:00 UTC. */
export function seriesOfBars(bars: readonly Bar[]): PriceSeries {
  return seriesOfColumns({
    times: bars.map((b) => `${b.date}T00:00:00Z`),
    open: bars.map((b) => b.open),
    high: bars.map((b) => b.high),
    low: bars.map((b) => b.low),
    close: bars.map((b) => b.close),
    volume: bars.map((b) => b.volume),
  });
}

/**
 * An output array with no value (NaN) before `first`; from `first` on the caller writes every
 * slot, so only the warm-up is filled (one pass less over a million bars).
 */
export function emptyOutput(n: number, first = n): Float64Array {
  return new Float64Array(n).fill(Number.NaN, 0, Math.min(Math.max(first, 0), n));
}
