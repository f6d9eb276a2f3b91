import { DAY_MS } from "../instants";
import { ExactSum } from "./exact-sum";
import { emptyOutput } from "./series";

/** On-balance volume from the first bar's volume: + volume on an up close, − on a down close. */
export function obv(close: Float64Array, volume: Float64Array): Float64Array {
  const out = new Float64Array(close.length);
  if (close.length === 0) return out;
  let total = volume[0] as number;
  out[0] = total;
  for (let i = 1; i < close.length; i++) {
    // Branch-free: up and down closes alternate at random, which defeats branch prediction.
    total += (volume[i] as number) * Math.sign((close[i] as number) - (close[i - 1] as number));
    out[i] = total;
  }
  return out;
}

/** Chaikin accumulation/distribution line: Σ close-location value × volume (0 for a bar with high = low). */
export function ad(high: Float64Array, low: Float64Array, close: Float64Array, volume: Float64Array): Float64Array {
  const out = new Float64Array(close.length);
  let total = 0;
  for (let i = 0; i < close.length; i++) {
    const h = high[i] as number;
    const l = low[i] as number;
    const c = close[i] as number;
    const range = h - l;
    if (range > 0) total += ((c - l - (h - c)) / range) * (volume[i] as number);
    out[i] = total;
  }
  return out;
}

/**
 * Money flow index: typical price × volume split by the direction of the typical price, summed
 * over n bars (running sums kept exactly: a value depends on its window alone); first value at n;
 * 0 when the flows sum to less than 1.
 */
export function mfi(
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  volume: Float64Array,
  n: number,
): Float64Array {
  const len = close.length;
  const out = emptyOutput(len, n);
  if (len <= n) return out;
  const pos = new Float64Array(len);
  const neg = new Float64Array(len);
  let prevTp = ((high[0] as number) + (low[0] as number) + (close[0] as number)) / 3;
  for (let i = 1; i < len; i++) {
    const tp = ((high[i] as number) + (low[i] as number) + (close[i] as number)) / 3;
    const flow = tp * (volume[i] as number);
    if (tp > prevTp) pos[i] = flow;
    else if (tp < prevTp) neg[i] = flow;
    prevTp = tp;
  }
  const posSum = new ExactSum();
  const negSum = new ExactSum();
  for (let i = 1; i <= n; i++) {
    posSum.add(pos[i] as number);
    negSum.add(neg[i] as number);
  }
  for (let i = n; i < len; i++) {
    if (i > n) {
      posSum.add(pos[i] as number);
      posSum.remove(pos[i - n] as number);
      negSum.add(neg[i] as number);
      negSum.remove(neg[i - n] as number);
    }
    const p = posSum.value();
    const total = p + negSum.value();
    out[i] = total < 1 ? 0 : (100 * p) / total;
  }
  return out;
}

/**
 * Intraday VWAP: cumulative typical price × volume over cumulative volume, restarted on each
 * session day (the UTC date of the bar time). A day without volume yet has no value.
 */
export function vwap(
  epochs: Float64Array,
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  volume: Float64Array,
): Float64Array {
  const out = emptyOutput(close.length);
  let day = Number.NaN;
  let pv = 0;
  let vol = 0;
  for (let i = 0; i < close.length; i++) {
    const d = Math.floor((epochs[i] as number) / DAY_MS);
    if (d !== day) {
      day = d;
      pv = 0;
      vol = 0;
    }
    const v = volume[i] as number;
    pv += (((high[i] as number) + (low[i] as number) + (close[i] as number)) / 3) * v;
    vol += v;
    if (vol > 0) out[i] = pv / vol;
  }
  return out;
}
