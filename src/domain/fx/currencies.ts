/**
 * The currencies the service has rates for: the euro, and the 30 the ECB publishes a daily
 * reference rate of against it (its list since 2022; the rouble's ended on 1 March 2022 and the
 * kuna's with Croatia's euro, 2023). A currency outside this list has no rates: a 400.
 */
export const EUR = "EUR";

export const ECB_CURRENCIES = [
  "USD",
  "JPY",
  "BGN",
  "CZK",
  "DKK",
  "GBP",
  "HUF",
  "PLN",
  "RON",
  "SEK",
  "CHF",
  "ISK",
  "NOK",
  "TRY",
  "AUD",
  "BRL",
  "CAD",
  "CNY",
  "HKD",
  "IDR",
  "ILS",
  "INR",
  "KRW",
  "MXN",
  "MYR",
  "NZD",
  "PHP",
  "SGD",
  "THB",
  "ZAR",
] as const;

export const RATED_CURRENCIES: readonly string[] = [EUR, ...ECB_CURRENCIES];
const RATED = new Set(RATED_CURRENCIES);

/** Whether the service has rates of an ISO 4217 code (upper case). */
export const isRatedCurrency = (code: string): boolean => RATED.has(code);

/** A three-letter code as the routes take it (any case), upper-cased; null when it is not three letters. */
export function currencyCode(text: string): string | null {
  const t = text.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(t) ? t : null;
}
