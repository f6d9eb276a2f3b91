import { sma } from "./averages";
import { ExactSum } from "./exact-sum";
import { emptyOutput } from "./series";

/**
 * Bollinger bands: SMA ± `std` population standard deviations of the same window, from running
 * sums of the closes and their squares kept exactly (a value depends on its window alone).
 */
export function bbands(close: Float64Array, n: number, std: number): [Float64Array, Float64Array, Float64Array] {
  const len = close.length;
  const middle = sma(close, n);
  const upper = emptyOutput(len, n - 1);
  const lower = emptyOutput(len, n - 1);
  const squares = new ExactSum();
  for (let i = 0; i < Math.min(n - 1, len); i++) squares.add((close[i] as number) ** 2);
  for (let i = n - 1; i < len; i++) {
    squares.add((close[i] as number) ** 2);
    const m = middle[i] as number;
    const variance = squares.value() / n - m * m;
    const sd = variance > 0 ? Math.sqrt(variance) : 0;
    upper[i] = m + std * sd;
    lower[i] = m - std * sd;
    squares.remove((close[i - n + 1] as number) ** 2);
  }
  return [upper, middle, lower];
}

/** True range of bar i ≥ 1 (it needs the previous close). */
function rangeAt(high: Float64Array, low: Float64Array, close: Float64Array, i: number): number {
  const h = high[i] as number;
  const l = low[i] as number;
  const pc = close[i - 1] as number;
  return Math.max(h - l, Math.abs(h - pc), Math.abs(l - pc));
}

/**
 * Average true range, TA-Lib style: the mean of the first n true ranges (bars 1..n), then
 * Wilder's smoothing; one pass, true ranges computed as it goes.
 */
export function atr(high: Float64Array, low: Float64Array, close: Float64Array, n: number): Float64Array {
  const len = close.length;
  const out = emptyOutput(len, n);
  if (len <= n) return out;
  let prev = 0;
  for (let i = 1; i <= n; i++) prev += rangeAt(high, low, close, i);
  prev /= n;
  out[n] = prev;
  const k = 1 / n;
  for (let i = n + 1; i < len; i++) {
    prev = (rangeAt(high, low, close, i) - prev) * k + prev;
    out[i] = prev;
  }
  return out;
}

/**
 * Keltner channels (DESIGN.md): EMA(n) of the close ± `multiplier` × EMA(n) of the true range,
 * the first bar's true range being its high − low; first value at n − 1.
 */
export function kc(
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  n: number,
  multiplier: number,
): [Float64Array, Float64Array, Float64Array] {
  const len = close.length;
  const upper = emptyOutput(len, n - 1);
  const middle = emptyOutput(len, n - 1);
  const lower = emptyOutput(len, n - 1);
  if (len < n) return [upper, middle, lower];
  // Both EMAs in one pass, seeded with the averages of the first n closes and true ranges.
  let mid = 0;
  let range = 0;
  for (let i = 0; i < n; i++) {
    mid += close[i] as number;
    range += i === 0 ? (high[0] as number) - (low[0] as number) : rangeAt(high, low, close, i);
  }
  mid /= n;
  range /= n;
  const k = 2 / (n + 1);
  for (let i = n - 1; i < len; i++) {
    if (i >= n) {
      mid = ((close[i] as number) - mid) * k + mid;
      range = (rangeAt(high, low, close, i) - range) * k + range;
    }
    middle[i] = mid;
    upper[i] = mid + multiplier * range;
    lower[i] = mid - multiplier * range;
  }
  return [upper, middle, lower];
}
