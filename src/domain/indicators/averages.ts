import { ExactSum } from "./exact-sum";
import { emptyOutput } from "./series";

/**
 * Moving averages as TA-Lib defines them (its seeding, warm-up and alignment; window sums kept
 * exactly rather than in its running order). `from` is the first index where `input` has a value
 * (inputs that are themselves outputs start later); every output is NaN before its first value.
 */

/**
 * Simple moving average over `n` values: a running sum kept exactly, so each value is its window's
 * sum rounded once, divided by n, and does not depend on the bars before the window.
 */
export function sma(input: Float64Array, n: number, from = 0): Float64Array {
  const out = emptyOutput(input.length, from + n - 1);
  if (input.length - from < n) return out;
  const sum = new ExactSum();
  for (let i = from; i < from + n - 1; i++) sum.add(input[i] as number);
  for (let i = from + n - 1; i < input.length; i++) {
    sum.add(input[i] as number);
    out[i] = sum.value() / n;
    sum.remove(input[i - n + 1] as number);
  }
  return out;
}

/**
 * Exponential moving average with k = 2 / (n + 1), seeded with the simple average of the `n`
 * values starting at `seedFrom` (TA-Lib's default seeding): the first value is at seedFrom + n - 1.
 */
export function ema(input: Float64Array, n: number, seedFrom = 0): Float64Array {
  const k = 2 / (n + 1);
  const first = seedFrom + n - 1;
  const out = emptyOutput(input.length, first);
  if (first >= input.length) return out;
  let prev = 0;
  for (let i = seedFrom; i <= first; i++) prev += input[i] as number;
  prev /= n;
  out[first] = prev;
  for (let i = first + 1; i < input.length; i++) {
    prev = ((input[i] as number) - prev) * k + prev;
    out[i] = prev;
  }
  return out;
}

/**
 * Weighted moving average: weights 1..n, newest heaviest, as a running numerator and plain sum
 * kept exactly (each value depends on its window alone, as `sma`'s). A window holding a value
 * that is not a number has none.
 */
export function wma(input: Float64Array, n: number): Float64Array {
  const out = emptyOutput(input.length, n - 1);
  if (input.length < n) return out;
  const divider = (n * (n + 1)) / 2;
  const weighted = new ExactSum();
  const plain = new ExactSum();
  let nonFinite = 0;
  // Weights move by one each bar (the numerator loses the plain sum): only finite values take part.
  const enter = (x: number, weight: number) => {
    if (Number.isFinite(x)) {
      weighted.addProduct(x, weight);
      plain.add(x);
    } else nonFinite += 1;
  };
  for (let i = 0; i < n - 1; i++) enter(input[i] as number, i + 1);
  for (let i = n - 1; i < input.length; i++) {
    enter(input[i] as number, n);
    out[i] = nonFinite > 0 ? Number.NaN : weighted.value() / divider;
    weighted.addSum(plain, -1);
    const old = input[i - n + 1] as number;
    if (Number.isFinite(old)) plain.remove(old);
    else nonFinite -= 1;
  }
  return out;
}

/** Double EMA: 2·EMA − EMA(EMA); first value at 2(n − 1). */
export function dema(input: Float64Array, n: number): Float64Array {
  const e1 = ema(input, n);
  const e2 = ema(e1, n, n - 1);
  const out = emptyOutput(input.length, 2 * (n - 1));
  for (let i = 2 * (n - 1); i < input.length; i++) out[i] = 2 * (e1[i] as number) - (e2[i] as number);
  return out;
}

/** Triple EMA: 3·EMA − 3·EMA² + EMA³; first value at 3(n − 1). */
export function tema(input: Float64Array, n: number): Float64Array {
  const e1 = ema(input, n);
  const e2 = ema(e1, n, n - 1);
  const e3 = ema(e2, n, 2 * (n - 1));
  const out = emptyOutput(input.length, 3 * (n - 1));
  for (let i = 3 * (n - 1); i < input.length; i++)
    out[i] = 3 * (e1[i] as number) - 3 * (e2[i] as number) + (e3[i] as number);
  return out;
}
