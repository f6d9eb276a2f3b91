/** ISIN rules: 12 characters, two letters, then ten letters or digits; the last is a Luhn check digit. */

const ISIN_FORMAT = /^[A-Z]{2}[A-Z0-9]{10}$/;

/** Upper-cased ISIN when its shape is right (spec: case-insensitive), else null. */
export function normaliseIsin(raw: string): string | null {
  const isin = raw.trim().toUpperCase();
  return ISIN_FORMAT.test(isin) ? isin : null;
}

/**
 * The check digit an ISIN's first eleven characters call for (letters count as 10..35, then Luhn).
 * @example isinCheckDigit("US037833100") // 5
 */
export function isinCheckDigit(first11: string): number {
  const digits = [...first11.toUpperCase()]
    .map((ch) => (/[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55)))
    .join("");
  let sum = 0;
  // Luhn from the right: the rightmost digit of the payload is doubled (the check digit would sit right of it).
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = Number(digits[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function hasValidCheckDigit(isin: string): boolean {
  const n = normaliseIsin(isin);
  return n !== null && /[0-9]$/.test(n) && isinCheckDigit(n.slice(0, 11)) === Number(n.slice(11));
}

/**
 * Why a string is no ISIN (its shape, or its check digit, which a typo almost always breaks), or
 * null for a valid one: the one rule wherever an ISIN enters.
 * @example isinProblem("US0378331006") // "US0378331006 is no ISIN: its check digit should be 5, not 6"
 */
export function isinProblem(raw: string): string | null {
  const isin = normaliseIsin(raw);
  if (!isin) return `Invalid ISIN '${raw}': expected two letters followed by ten letters or digits`;
  const digit = isinCheckDigit(isin.slice(0, 11));
  return String(digit) === isin.slice(11)
    ? null
    : `${isin} is no ISIN: its check digit should be ${digit}, not ${isin.slice(11)}`;
}
