/**
 * How a catalogue listing is named by each provider, and how a provider's quoting currency relates
 * to the listing's. Pure: the facts are each venue's (venues.ts), from the providers' published conventions.
 */
import { VENUES, type Venue, venueOf } from "./venues";

/** Suffixes of venues the catalogue has none of, still named on the stream provider (Frankfurt's floor, Stuttgart). */
const OTHER_STREAM_EXCHANGES: Readonly<Record<string, string>> = { F: "FWB", SG: "SWB" };

/** Stream-provider exchange of a ticker suffix (Yahoo-style suffixes, as the catalogue uses them). */
const STREAM_EXCHANGE_OF_SUFFIX: Readonly<Record<string, string>> = {
  ...OTHER_STREAM_EXCHANGES,
  ...Object.fromEntries(Object.values(VENUES).flatMap((v) => (v.suffix ? [[v.suffix, v.streamExchange]] : []))),
};

/** The stream provider's US exchanges, whose class shares are written with a dot (`BRK.B`). */
const US_STREAM_EXCHANGES: ReadonlySet<string> = new Set(
  Object.values(VENUES)
    .filter((v) => v.suffix === null)
    .map((v) => v.streamExchange),
);

const VENUE_OF_SUFFIX: ReadonlyMap<string, Venue> = new Map(
  Object.values(VENUES).flatMap((v) => (v.suffix ? [[v.suffix, v] as const] : [])),
);

const VENUE_OF_DELAYED_EXCHANGE: ReadonlyMap<string, Venue> = new Map(
  Object.values(VENUES).flatMap((v) => v.delayedExchanges.map((code) => [code, v] as const)),
);

/**
 * The catalogue's venue of a ticker suffix (case ignored); undefined for a suffix of no venue of the catalogue.
 * @example venueOfSuffix("AX")?.code // "ASX"
 */
export const venueOfSuffix = (suffix: string): Venue | undefined => VENUE_OF_SUFFIX.get(suffix.toUpperCase());

/**
 * The catalogue's venue of a delayed-provider exchange code (case ignored); undefined for another venue's.
 * @example venueOfDelayedExchange("HKG")?.code // "HKEX"
 */
export const venueOfDelayedExchange = (code: string): Venue | undefined =>
  VENUE_OF_DELAYED_EXCHANGE.get(code.toUpperCase());

/** Splits `MC.PA` into `MC` and `PA`; `BRK-B` has no suffix. */
export function splitSuffix(ticker: string): { base: string; suffix: string | null } {
  const m = /^(.+)\.([A-Z]{1,2})$/.exec(ticker.toUpperCase());
  return m?.[1] && m[2] ? { base: m[1], suffix: m[2] } : { base: ticker.toUpperCase(), suffix: null };
}

/**
 * The stream-provider symbol (`EXCHANGE:SYMBOL`) of a listing: the ticker suffix names the exchange
 * (`.PA` -> EURONEXT, `.DE` -> XETR); without a suffix the catalogue exchange does, and a ticker
 * with neither is taken for a US line (NASDAQ). US class shares use a dot there (`BRK-B` -> `NYSE:BRK.B`);
 * Hong Kong's codes lose their leading zeros (`0700.HK` -> `HKEX:700`).
 * @example streamSymbolOf("MC.PA", "PAR") // "EURONEXT:MC"
 */
export function streamSymbolOf(ticker: string, catalogueExchange: string | null): string {
  const { base, suffix } = splitSuffix(ticker);
  const bySuffix = suffix ? STREAM_EXCHANGE_OF_SUFFIX[suffix] : undefined;
  if (bySuffix === "HKEX") return `${bySuffix}:${base.replace(/^0+(?=\d)/, "")}`;
  if (bySuffix) return `${bySuffix}:${base}`;
  const exchange = venueOf(catalogueExchange).streamExchange;
  const symbol = US_STREAM_EXCHANGES.has(exchange) ? ticker.toUpperCase().replace(/-/g, ".") : ticker.toUpperCase();
  return `${exchange}:${symbol}`;
}

/** Whether a delayed-provider exchange code is the venue of a catalogue exchange (unknown catalogue exchange: any venue). */
export function isVenueOf(delayedExchange: string | null, catalogueExchange: string | null): boolean {
  if (!catalogueExchange) return true;
  const codes = VENUES[catalogueExchange.toUpperCase()]?.delayedExchanges;
  if (!codes) return true;
  return delayedExchange !== null && codes.includes(delayedExchange.toUpperCase());
}

/** Sub-unit currencies providers quote in: London in pence (GBp/GBX), Tel Aviv in agorot, Johannesburg in cents. */
const SUBUNITS: Record<string, string> = { GBp: "GBP", GBX: "GBP", ILA: "ILS", ZAc: "ZAR" };

/**
 * A provider's currency as a currency and the factor to it: pence (GBp) are hundredths of pounds.
 * @example unitOf("GBp") // { currency: "GBP", scale: 0.01 }
 */
export function unitOf(quoted: string): { currency: string; scale: 1 | 0.01 } {
  const parent = SUBUNITS[quoted];
  return parent ? { currency: parent, scale: 0.01 } : { currency: quoted.toUpperCase(), scale: 1 };
}

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
