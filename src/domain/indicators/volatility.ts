import { ema, sma, wilder } from "./averages";
import { emptyOutput } from "./series";

/** Bollinger bands: SMA ± `std` population standard deviations of the same window (running sums). */
export function bbands(close: Float64Array, n: number, std: number): [Float64Array, Float64Array, Float64Array] {
  const len = close.length;
  const middle = sma(close, n);
  const upper = emptyOutput(len);
  const lower = emptyOutput(len);
  let squares = 0;
  for (let i = 0; i < Math.min(n - 1, len); i++) squares += (close[i] as number) ** 2;
  for (let i = n - 1; i < len; i++) {
    squares += (close[i] as number) ** 2;
    const m = middle[i] as number;
    const variance = squares / n - m * m;
    const sd = variance > 0 ? Math.sqrt(variance) : 0;
    upper[i] = m + std * sd;
    lower[i] = m - std * sd;
    squares -= (close[i - n + 1] as number) ** 2;
  }
  return [upper, middle, lower];
}

/** True range from the second bar on (it needs the previous close); the first bar's is its high − low. */
export function trueRange(high: Float64Array, low: Float64Array, close: Float64Array): Float64Array {
  const len = close.length;
  const tr = new Float64Array(len);
  if (len > 0) tr[0] = (high[0] as number) - (low[0] as number);
  for (let i = 1; i < len; i++) {
    const h = high[i] as number;
    const l = low[i] as number;
    const pc = close[i - 1] as number;
    tr[i] = Math.max(h - l, Math.abs(h - pc), Math.abs(l - pc));
  }
  return tr;
}

/** Average true range, TA-Lib style: the mean of the first n true ranges (bars 1..n), then Wilder's smoothing. */
export function atr(high: Float64Array, low: Float64Array, close: Float64Array, n: number): Float64Array {
  return wilder(trueRange(high, low, close), n, 1);
}

/**
 * Keltner channels (DESIGN.md): EMA(n) of the close ± `multiplier` × EMA(n) of the true range,
 * the first bar's true range being its high − low; first value at n − 1.
 */
export function kc(high: Float64Array, low: Float64Array, close: Float64Array, n: number, multiplier: number): [Float64Array, Float64Array, Float64Array] {
  const middle = ema(close, n);
  const range = ema(trueRange(high, low, close), n);
  const upper = emptyOutput(close.length);
  const lower = emptyOutput(close.length);
  for (let i = n - 1; i < close.length; i++) {
    upper[i] = (middle[i] as number) + multiplier * (range[i] as number);
    lower[i] = (middle[i] as number) - multiplier * (range[i] as number);
  }
  return [upper, middle, lower];
}
