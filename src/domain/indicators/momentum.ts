import { ema, sma } from "./averages";
import { emptyOutput } from "./series";

/**
 * RSI with Wilder's smoothing, TA-Lib style: the first value (at index n) uses the plain averages
 * of the first n gains and losses; a flat market (no gain, no loss) reads 0.
 */
export function rsi(close: Float64Array, n: number): Float64Array {
  const out = emptyOutput(close.length);
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
    gain = (gain * (n - 1) + (d > 0 ? d : 0)) / n;
    loss = (loss * (n - 1) + (d < 0 ? -d : 0)) / n;
    out[i] = gain + loss === 0 ? 0 : (100 * gain) / (gain + loss);
  }
  return out;
}

/**
 * MACD as TA-Lib aligns it: both EMAs produce their first value at slow − 1 (the fast one seeded
 * with the average of the `fast` closes ending there), the signal is an EMA of the MACD line, and
 * all three outputs start where the signal does, at slow + signal − 2.
 */
export function macd(close: Float64Array, fast: number, slow: number, signal: number): [Float64Array, Float64Array, Float64Array] {
  const [f, s] = fast <= slow ? [fast, slow] : [slow, fast];
  const fastEma = ema(close, f, s - f);
  const slowEma = ema(close, s);
  const line = emptyOutput(close.length);
  for (let i = s - 1; i < close.length; i++) line[i] = (fastEma[i] as number) - (slowEma[i] as number);
  const sig = ema(line, signal, s - 1);
  const start = s + signal - 2;
  const macdOut = emptyOutput(close.length);
  const hist = emptyOutput(close.length);
  for (let i = start; i < close.length; i++) {
    macdOut[i] = line[i] as number;
    hist[i] = (line[i] as number) - (sig[i] as number);
  }
  return [macdOut, sig, hist];
}

/** Highest high and lowest low of the `n` bars ending at each index (NaN before n − 1). */
function extremes(high: Float64Array, low: Float64Array, n: number): [Float64Array, Float64Array] {
  const hh = emptyOutput(high.length);
  const ll = emptyOutput(low.length);
  for (let i = n - 1; i < high.length; i++) {
    let h = Number.NEGATIVE_INFINITY;
    let l = Number.POSITIVE_INFINITY;
    for (let j = i - n + 1; j <= i; j++) {
      if ((high[j] as number) > h) h = high[j] as number;
      if ((low[j] as number) < l) l = low[j] as number;
    }
    hh[i] = h;
    ll[i] = l;
  }
  return [hh, ll];
}

/** Slow stochastic: fast %K over `k` bars, smoothed by an SMA of `slowK` (%K), then `slowD` (%D). */
export function stoch(high: Float64Array, low: Float64Array, close: Float64Array, k: number, slowK: number, slowD: number): [Float64Array, Float64Array] {
  const [hh, ll] = extremes(high, low, k);
  const fastK = emptyOutput(close.length);
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
  const out = emptyOutput(len);
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
  const out = emptyOutput(close.length);
  for (let i = n; i < close.length; i++) {
    const old = close[i - n] as number;
    out[i] = old === 0 ? 0 : ((close[i] as number) / old - 1) * 100;
  }
  return out;
}

/** Momentum: close − close n bars before. */
export function mom(close: Float64Array, n: number): Float64Array {
  const out = emptyOutput(close.length);
  for (let i = n; i < close.length; i++) out[i] = (close[i] as number) - (close[i - n] as number);
  return out;
}
