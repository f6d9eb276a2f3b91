import { sma } from "./averages";
import { emptyOutput } from "./series";

/**
 * RSI with Wilder's smoothing, TA-Lib style: the first value (at index n) uses the plain averages
 * of the first n gains and losses; a flat market (no gain, no loss) reads 0.
 */
export function rsi(close: Float64Array, n: number): Float64Array {
  const out = emptyOutput(close.length, n);
  if (close.length <= n) return out;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= n; i++) {
    const d = (close[i] as number) - (close[i - 1] as number);
    if (d > 0) gain += d;
    else loss -= d;
  }
  gain /= n;
  loss /= n;
  out[n] = gain + loss === 0 ? 0 : (100 * gain) / (gain + loss);
  for (let i = n + 1; i < close.length; i++) {
    const d = (close[i] as number) - (close[i - 1] as number);
    gain = (gain * (n - 1) + Math.max(d, 0)) / n;
    loss = (loss * (n - 1) + (d < 0 ? -d : 0)) / n;
    out[i] = gain + loss === 0 ? 0 : (100 * gain) / (gain + loss);
  }
  return out;
}

/**
 * MACD as TA-Lib aligns it: both EMAs produce their first value at slow − 1 (the fast one seeded
 * with the average of the `fast` closes ending there), the signal is an EMA of the MACD line
 * seeded with the average of its first `signal` values, and all three outputs start where the
 * signal does, at slow + signal − 2. One pass, in the same order of operations as `ema`.
 */
export function macd(
  close: Float64Array,
  fast: number,
  slow: number,
  signal: number,
): [Float64Array, Float64Array, Float64Array] {
  const [f, s] = fast <= slow ? [fast, slow] : [slow, fast];
  const n = close.length;
  const start = s + signal - 2;
  const line = emptyOutput(n, start);
  const sig = emptyOutput(n, start);
  const hist = emptyOutput(n, start);
  if (n < s) return [line, sig, hist];
  let fastPrev = 0;
  for (let i = s - f; i < s; i++) fastPrev += close[i] as number;
  fastPrev /= f;
  let slowPrev = 0;
  for (let i = 0; i < s; i++) slowPrev += close[i] as number;
  slowPrev /= s;
  const kf = 2 / (f + 1);
  const ks = 2 / (s + 1);
  const kg = 2 / (signal + 1);
  let seed = 0;
  let sigPrev = 0;
  for (let i = s - 1; i < n; i++) {
    if (i >= s) {
      const c = close[i] as number;
      fastPrev = (c - fastPrev) * kf + fastPrev;
      slowPrev = (c - slowPrev) * ks + slowPrev;
    }
    const m = fastPrev - slowPrev;
    if (i < start) {
      seed += m;
      continue;
    }
    if (i === start) sigPrev = (seed + m) / signal;
    else sigPrev = (m - sigPrev) * kg + sigPrev;
    line[i] = m;
    sig[i] = sigPrev;
    hist[i] = m - sigPrev;
  }
  return [line, sig, hist];
}

/**
 * Highest high and lowest low of the `n` bars ending at each index (NaN before n − 1), with two
 * monotonic queues of indices: each bar enters and leaves each queue once, so O(bars) for any n.
 */
function extremes(high: Float64Array, low: Float64Array, n: number): [Float64Array, Float64Array] {
  const len = high.length;
  const hh = emptyOutput(len, n - 1);
  const ll = emptyOutput(len, n - 1);
  const maxQ = new Int32Array(len);
  const minQ = new Int32Array(len);
  let maxHead = 0;
  let maxTail = 0;
  let minHead = 0;
  let minTail = 0;
  for (let i = 0; i < len; i++) {
    const h = high[i] as number;
    const l = low[i] as number;
    while (maxTail > maxHead && (high[maxQ[maxTail - 1] as number] as number) <= h) maxTail--;
    maxQ[maxTail++] = i;
    while (minTail > minHead && (low[minQ[minTail - 1] as number] as number) >= l) minTail--;
    minQ[minTail++] = i;
    if ((maxQ[maxHead] as number) <= i - n) maxHead++;
    if ((minQ[minHead] as number) <= i - n) minHead++;
    if (i >= n - 1) {
      hh[i] = high[maxQ[maxHead] as number] as number;
      ll[i] = low[minQ[minHead] as number] as number;
    }
  }
  return [hh, ll];
}

/** Slow stochastic: fast %K over `k` bars, smoothed by an SMA of `slowK` (%K), then `slowD` (%D). */
export function stoch(
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  k: number,
  slowK: number,
  slowD: number,
): [Float64Array, Float64Array] {
  const [hh, ll] = extremes(high, low, k);
  const fastK = emptyOutput(close.length, k - 1);
  for (let i = k - 1; i < close.length; i++) {
    const range = (hh[i] as number) - (ll[i] as number);
    fastK[i] = range === 0 ? 0 : (((close[i] as number) - (ll[i] as number)) / range) * 100;
  }
  const kOut = sma(fastK, slowK, k - 1);
  const dOut = sma(kOut, slowD, k + slowK - 2);
  // TA-Lib reports both from the first %D.
  const start = k + slowK + slowD - 3;
  for (let i = 0; i < Math.min(start, kOut.length); i++) kOut[i] = Number.NaN;
  return [kOut, dOut];
}

/** Commodity Channel Index: (typical price − its SMA) / (0.015 × mean absolute deviation). */
export function cci(high: Float64Array, low: Float64Array, close: Float64Array, n: number): Float64Array {
  const len = close.length;
  const tp = new Float64Array(len);
  for (let i = 0; i < len; i++) tp[i] = ((high[i] as number) + (low[i] as number) + (close[i] as number)) / 3;
  const avg = sma(tp, n);
  const out = emptyOutput(len, n - 1);
  for (let i = n - 1; i < len; i++) {
    const m = avg[i] as number;
    let dev = 0;
    for (let j = i - n + 1; j <= i; j++) dev += Math.abs((tp[j] as number) - m);
    dev /= n;
    const diff = (tp[i] as number) - m;
    out[i] = dev === 0 || diff === 0 ? 0 : diff / (0.015 * dev);
  }
  return out;
}

/** Rate of change in percent over `n` bars (0 where the old close is 0). */
export function roc(close: Float64Array, n: number): Float64Array {
  const out = emptyOutput(close.length, n);
  for (let i = n; i < close.length; i++) {
    const old = close[i - n] as number;
    out[i] = old === 0 ? 0 : ((close[i] as number) / old - 1) * 100;
  }
  return out;
}

/** Momentum: close − close n bars before. */
export function mom(close: Float64Array, n: number): Float64Array {
  const out = emptyOutput(close.length, n);
  for (let i = n; i < close.length; i++) out[i] = (close[i] as number) - (close[i - n] as number);
  return out;
}
