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
