import Decimal from "decimal.js";

/**
 * The valuation's decimal arithmetic: 40 significant digits (a market capitalisation of 10^13 with
 * ten decimals fits) and half-up rounding, so no binary residue of a float reaches a figure.
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = Decimal;

/**
 * Places a figure is shown with. A rate is rounded to RATE_PLACES before any model uses it, so the
 * rate an answer shows is exactly the rate its figures were computed with.
 */
export const RATE_PLACES = 6;
export const MONEY_PLACES = 4;
export const PERCENT_PLACES = 2;

/** A stored figure (JSON number, numeric string) as a decimal; null for anything that is not a finite number. */
export function dec(x: unknown): Decimal | null {
  if (typeof x === "number") return Number.isFinite(x) ? new Dec(x) : null;
  if (typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x))) return new Dec(x.trim());
  return null;
}

export const rate = (x: Decimal.Value): Decimal => new Dec(x).toDecimalPlaces(RATE_PLACES);

/** `x` bounded to [lo, hi]. */
export function clamp(x: Decimal, lo: Decimal.Value, hi: Decimal.Value): Decimal {
  return Dec.min(Dec.max(x, lo), hi);
}

/** A plain decimal string (never an exponent) with at most `places` decimals. */
export function show(x: Decimal | null, places: number): string | null {
  return x === null ? null : x.toDecimalPlaces(places).toFixed();
}

/** As a percentage with two decimals: 0.0412 -> "4.12 %" (for warnings). */
export const pct = (x: Decimal): string => `${x.times(100).toDecimalPlaces(PERCENT_PLACES).toFixed()} %`;

/** Upside of `value` over `price` in percent (18.6 = 18.6 % above the price); null without both, or from a price of 0. */
export function upsidePct(value: Decimal | null, price: Decimal | null): Decimal | null {
  if (value === null || price === null || price.isZero()) return null;
  return value.div(price).minus(1).times(100);
}
