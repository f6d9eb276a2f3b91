import Decimal from "decimal.js";

/**
 * A float as a plain decimal string (never an exponent), rounded to `places` decimals and without
 * trailing zeros: what the spec's "decimal string" fields carry.
 * @example toDecimalString(2.3582948013482174e-14) // "0"
 * @example toDecimalString(94.14059499999999) // "94.140595"
 */
export function toDecimalString(x: number, places = 10): string {
  return new Decimal(x).toDecimalPlaces(places).toFixed();
}

/**
 * Change from the previous close, and in percent (4 decimals), in decimal arithmetic so no binary
 * residue (0.1 + 0.2) reaches an answer. Null without a previous close; no percent from a close of 0.
 * @example changeFrom(101.5, 100)?.percent.toFixed() // "1.5"
 */
export function changeFrom(
  price: number,
  previousClose: number | null,
): { change: Decimal; percent: Decimal | null } | null {
  if (previousClose === null) return null;
  const change = new Decimal(price).minus(previousClose);
  return { change, percent: previousClose === 0 ? null : change.div(previousClose).times(100).toDecimalPlaces(4) };
}
