/**
 * The precision of prices as the delayed provider sends them, and how much a value stored from it
 * may stand from the provider's own figure. Pure.
 *
 * The provider computes in float32 and widens to float64 on the wire (13.237 arrives as
 * 13.237000465393066): the decimal it meant is the shortest one that reads back as the same
 * float32. Nothing else is cut: a 4:1 split's 52.948 / 4 stays 13.237, never the price hint's 13.24.
 */

/** Significant digits that tell any float32 apart (FLT_DECIMAL_DIG). */
const FLOAT32_DIGITS = 9;

/**
 * The decimal the provider meant by a float32: its price rounded to the price hint where that reads
 * back as the same float32 (a large price whose float32 cannot hold the hint's decimals: 154663.91
 * pence arrives as 154663.90625), else the shortest decimal that does. Every digit the provider
 * gave, none of the widening's noise; the hint never cuts a digit the float32 holds (13.237 stays
 * 13.237, not 13.24). A value that is no float32 (a provider that moved to float64) is kept whole.
 * @example float32Decimal(13.237000465393066, 2) // 13.237
 * @example float32Decimal(154663.90625, 2) // 154663.91
 * @example float32Decimal(123456.78125) // 123456.78
 */
export function float32Decimal(x: number, hint?: number): number {
  if (!Number.isFinite(x) || Math.fround(x) !== x) return x;
  if (hint !== undefined) {
    const hinted = Number(x.toFixed(hint));
    if (Math.fround(hinted) === x) return hinted;
  }
  for (let p = 1; p < FLOAT32_DIGITS; p++) {
    const v = Number(x.toPrecision(p));
    if (Math.fround(v) === x) return v;
  }
  return Number(x.toPrecision(FLOAT32_DIGITS));
}

/** A float32's relative spacing (2^-23): two neighbouring float32 values differ by at most this share. */
export const FLOAT32_RELATIVE = 2 ** -23;

/** The quantum prices are stored at (numeric, 8 decimals). */
const STORED_QUANTUM = 1e-8;

/**
 * How a listing's stored daily prices were written: `full` at the provider's precision
 * (float32Decimal), `price_hint` rounded to the provider's price hint (2 decimals for most shares),
 * as the service stored them before full precision; adjusted closes then kept 7 significant digits.
 */
export type StoredPrecision = "full" | "price_hint";

/** Decimals written in a number's shortest form (13.237 → 3, 1e-7 → 7). */
function decimalsOf(x: number): number {
  const [mantissa = "", exponent = "0"] = Math.abs(x).toString().split("e");
  const fraction = mantissa.split(".")[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/**
 * The largest relative error of a stored price against the provider's own float32 figure: one
 * float32 step for values stored whole; for values rounded to the price hint, half the hint's
 * quantum (at least the decimals the value shows, 2 for the common hint), which at 13.24 is 3.8e-4.
 */
export function relativeError(x: number, precision: StoredPrecision): number {
  const size = Math.abs(x);
  if (size === 0) return Number.POSITIVE_INFINITY;
  const rounded = precision === "price_hint" ? 10 ** -Math.max(2, decimalsOf(x)) / 2 : 0;
  return Math.max(FLOAT32_RELATIVE, rounded / size, STORED_QUANTUM / 2 / size);
}
