/**
 * How a catalogue listing is named by each provider, and how a provider's quoting currency relates
 * to the listing's. Pure: the tables come from the providers' published conventions.
 */

/** Stream-provider exchange of a ticker suffix (Yahoo-style suffixes, as the catalogue uses them). */
const STREAM_EXCHANGE_OF_SUFFIX: Record<string, string> = {
  PA: "EURONEXT",
  AS: "EURONEXT",
  BR: "EURONEXT",
  LS: "EURONEXT",
  DE: "XETR",
  F: "FWB",
  SG: "SWB",
  MI: "MIL",
  MC: "BME",
  L: "LSE",
  SW: "SIX",
  VI: "VIE",
  HE: "OMXHEX",
};

/** Stream-provider exchange of a catalogue exchange code, for listings whose ticker carries no suffix. */
const STREAM_EXCHANGE_OF_CATALOGUE: Record<string, string> = {
  NASDAQ: "NASDAQ",
  NYSE: "NYSE",
  NYSEARCA: "AMEX",
  PAR: "EURONEXT",
  AMS: "EURONEXT",
  XETRA: "XETR",
  MIL: "MIL",
  LSE: "LSE",
  MCE: "BME",
  BRU: "EURONEXT",
  HEL: "OMXHEX",
};

/** Delayed-provider exchange codes of each catalogue exchange (a search hit on another venue is not that listing). */
const DELAYED_EXCHANGES_OF_CATALOGUE: Record<string, readonly string[]> = {
  NASDAQ: ["NMS", "NGM", "NCM", "NAS"],
  NYSE: ["NYQ"],
  NYSEARCA: ["PCX"],
  PAR: ["PAR"],
  AMS: ["AMS"],
  XETRA: ["GER"],
  MIL: ["MIL"],
  LSE: ["LSE"],
  MCE: ["MCE"],
  BRU: ["BRU"],
  HEL: ["HEL"],
};

/** Splits `MC.PA` into `MC` and `PA`; `BRK-B` has no suffix. */
export function splitSuffix(ticker: string): { base: string; suffix: string | null } {
  const m = /^(.+)\.([A-Z]{1,2})$/.exec(ticker.toUpperCase());
  return m?.[1] && m[2] ? { base: m[1], suffix: m[2] } : { base: ticker.toUpperCase(), suffix: null };
}

/**
 * The stream-provider symbol (`EXCHANGE:SYMBOL`) of a listing: the ticker suffix names the exchange
 * (`.PA` -> EURONEXT, `.DE` -> XETR); without a suffix the catalogue exchange does, and a ticker
 * with neither is taken for a US line (NASDAQ). US class shares use a dot there (`BRK-B` -> `NYSE:BRK.B`).
 * @example streamSymbolOf("MC.PA", "PAR") // "EURONEXT:MC"
 */
export function streamSymbolOf(ticker: string, catalogueExchange: string | null): string {
  const { base, suffix } = splitSuffix(ticker);
  const bySuffix = suffix ? STREAM_EXCHANGE_OF_SUFFIX[suffix] : undefined;
  if (bySuffix) return `${bySuffix}:${base}`;
  const exchange = (catalogueExchange && STREAM_EXCHANGE_OF_CATALOGUE[catalogueExchange.toUpperCase()]) ?? "NASDAQ";
  const us = exchange === "NASDAQ" || exchange === "NYSE" || exchange === "AMEX";
  return `${exchange}:${us ? ticker.toUpperCase().replace(/-/g, ".") : ticker.toUpperCase()}`;
}

/** Whether a delayed-provider exchange code is the venue of a catalogue exchange (unknown catalogue exchange: any venue). */
export function isVenueOf(delayedExchange: string | null, catalogueExchange: string | null): boolean {
  if (!catalogueExchange) return true;
  const codes = DELAYED_EXCHANGES_OF_CATALOGUE[catalogueExchange.toUpperCase()];
  if (!codes) return true;
  return delayedExchange !== null && codes.includes(delayedExchange.toUpperCase());
}

/** Sub-unit currencies providers quote in: London in pence (GBp/GBX), Tel Aviv in agorot, Johannesburg in cents. */
const SUBUNITS: Record<string, string> = { GBp: "GBP", GBX: "GBP", ILA: "ILS", ZAc: "ZAR" };

/**
 * The factor that turns a provider's prices into the listing's currency: 1 when they agree, 0.01
 * when the provider quotes the sub-unit (GBp for a GBP listing), null when they are different currencies.
 * @example currencyScale("GBp", "GBP") // 0.01
 */
export function currencyScale(quoted: string | null, listingCurrency: string): 1 | 0.01 | null {
  if (!quoted) return null;
  if (quoted.toUpperCase() === listingCurrency.toUpperCase() && !(quoted in SUBUNITS)) return 1;
  return SUBUNITS[quoted] === listingCurrency.toUpperCase() ? 0.01 : null;
}

/**
 * The factor for a live stream's prices: `currencyScale` when the provider named its currency; when
 * it did not, 1 for a listing whose currency has no sub-unit a provider quotes in, else unknown (a
 * GBP listing's prices may be in pence).
 * @example liveScale(null, "USD") // 1
 */
export function liveScale(quoted: string | null, listingCurrency: string): 1 | 0.01 | null {
  if (quoted) return currencyScale(quoted, listingCurrency);
  return Object.values(SUBUNITS).includes(listingCurrency.toUpperCase()) ? null : 1;
}
