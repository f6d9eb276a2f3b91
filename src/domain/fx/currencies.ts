/**
 * The currencies the service has rates of: the euro; the 29 the ECB publishes a daily reference
 * rate of against it; and those it published until they joined the euro (the Bulgarian lev, last
 * published on 31 December 2025), whose history stays. The rouble's publication ended on
 * 1 March 2022 and the kuna's in 2022: not offered. A currency outside this list has no rates: a 400.
 */
export const EUR = "EUR";

/** The currencies of each day's publication now (the canary expects every one). */
export const ECB_CURRENCIES = [
  "USD",
  "JPY",
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

/** Currencies the ECB published until they joined the euro: their last publication. */
export const ENDED_CURRENCIES: Readonly<Record<string, string>> = { BGN: "2025-12-31" };

export const RATED_CURRENCIES: readonly string[] = [EUR, ...ECB_CURRENCIES, ...Object.keys(ENDED_CURRENCIES)];
const RATED = new Set(RATED_CURRENCIES);

/** Whether the service has rates of an ISO 4217 code (upper case). */
export const isRatedCurrency = (code: string): boolean => RATED.has(code);
