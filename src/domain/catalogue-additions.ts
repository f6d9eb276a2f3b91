/**
 * The rules by which an instrument joins the catalogue from what providers say about it: which
 * offered lines become listings (and why others do not), each listing's ticker and currency, the
 * primary listing, and whether two names are one company's. Pure.
 */

import { DAY_MS } from "./instants";
import { DELAYED } from "./provider-names";
import { currencyScale, splitSuffix, venueOfDelayedExchange, venueOfSuffix } from "./provider-symbols";
import type { Venue } from "./venues";

/** How an instrument joined: the seed import, POST /assets, a read that discovered it, a bulk import. */
export type AdditionVia = "seed" | "request" | "discovery" | "import";

/** Where each stored field was read: `name`, `quote_type`, `sector`, `industry`, `isin`, and per listing ticker. */
export type FieldSources = Record<string, string>;

/** Where a listing was learned (`listings.source`): the seed's own rows, else the delayed provider's search. */
export const listingSourceOf = (via: AdditionVia): string => (via === "seed" ? "seed" : DELAYED);

/** The record of an instrument the seed import stored (and of one stored before records were kept). */
export const SEED_SOURCES: FieldSources = { all: "the seed catalogue" };

/**
 * What a store records of where an instrument's fields were read: a known instrument keeps what it
 * knew of its fields (the seed's record when it kept none) and gains its new listings' sources; a
 * new one has what was read now.
 */
export function sourcesToStore(
  known: { sources: FieldSources | null } | null,
  readNow: FieldSources,
  listingSources: FieldSources,
): FieldSources {
  return known ? { ...(known.sources ?? SEED_SOURCES), ...listingSources } : { ...readNow, ...listingSources };
}

/** ISINs one POST /assets may carry: each costs a few provider calls, paced. */
export const MAX_ITEMS_PER_REQUEST = 25;
/** Spec Limits: a ticker has at most 10 characters. */
export const MAX_TICKER_LENGTH = 10;
/** How long "no provider knows it" is believed before the providers are asked again. */
export const MISS_REMEMBERED_MS = DAY_MS;
/** Charts fetched per instrument to verify its lines: each is a provider call. */
export const MAX_LINES_PROBED = 8;

/** The quote types the catalogue holds: shares and exchange-traded funds. */
const HELD_TYPES = new Set(["EQUITY", "ETF"]);

/** Whether a line of this quote type may join the catalogue (a line that names none may: its chart decides). */
export const isHeldQuoteType = (quoteType: string | null): boolean =>
  !quoteType || HELD_TYPES.has(quoteType.toUpperCase());

/** The characters of a ticker, wherever one enters (its length is MAX_TICKER_LENGTH's to bound). */
export const TICKER_CHARS = /^[A-Z0-9][A-Z0-9.\-^=&]*$/i;

/** A line a provider offered for an instrument (a search hit). */
export interface OfferedLine {
  symbol: string;
  /** The delayed provider's exchange code (GER, LSE, JPX). */
  exchange: string | null;
  name: string | null;
  quoteType: string | null;
}

/** A line placed on a venue of the catalogue, or the reason it is left out. */
export type Placement = { venue: Venue; ticker: string } | { refused: string };

/**
 * Where an offered line would be listed: the venue its exchange code (else its suffix) names; its
 * ticker is the provider's symbol (the catalogue's convention: `7203.T`, `AZN.L`, US lines bare).
 * @example placeLine({ symbol: "SAP.F", exchange: "FRA", name: "SAP SE", quoteType: "EQUITY" })
 * // { refused: "SAP.F trades on FRA, a venue the catalogue does not support" }
 */
export function placeLine(line: OfferedLine): Placement {
  const symbol = line.symbol.trim().toUpperCase();
  if (line.quoteType && !isHeldQuoteType(line.quoteType))
    return { refused: `${symbol} is a ${line.quoteType.toLowerCase()}; the catalogue holds shares and ETFs` };
  const { suffix } = splitSuffix(symbol);
  const venue =
    (line.exchange ? venueOfDelayedExchange(line.exchange) : undefined) ?? (suffix ? venueOfSuffix(suffix) : undefined);
  if (!venue)
    return {
      refused: `${symbol} trades on ${line.exchange ?? "an unnamed venue"}, a venue the catalogue does not support`,
    };
  if (symbol.length > MAX_TICKER_LENGTH)
    return { refused: `${symbol} has more than ${MAX_TICKER_LENGTH} characters, the longest ticker the API takes` };
  return { venue, ticker: symbol };
}

/**
 * The listing's currency from the one its chart quotes in: the venue's own when the chart quotes it
 * or its sub-unit (GBp on London), else the quoted ISO currency itself (London's dollar lines),
 * else null (a sub-unit of another currency: nothing to store it as).
 * @example listingCurrencyOf("GBp", "GBP") // "GBP"
 */
export function listingCurrencyOf(quoted: string | null, venueCurrency: string): string | null {
  if (!quoted) return null;
  if (currencyScale(quoted, venueCurrency) !== null) return venueCurrency;
  return /^[A-Z]{3}$/.test(quoted) && currencyScale(quoted, quoted) === 1 ? quoted : null;
}

/** A listing about to be stored, with what the primary rule weighs. */
export interface NewListing {
  ticker: string;
  exchange: string;
  currency: string;
  /** The venue's countries (ISO 3166 alpha-2): its home issuers. */
  countries: readonly string[];
  venueCurrency: string;
  /** Median close × volume over the verification window, in the listing's currency (0 when unknown). */
  tradedValue: number;
}

/**
 * The primary listing of an instrument that has none (one that has one keeps it, so every seed
 * instrument's primary stays as it is): a share's listing on a venue of its ISIN's country in that
 * venue's currency (its home market); else, and for funds, a line in the home country's currency
 * (`homeCurrency`) before others, then the most traded by value (values in different currencies
 * are not converted: the currency rule comes first so that yen never outweigh euros); ties by
 * exchange code, then ticker, byte order.
 */
export function choosePrimary(
  candidates: readonly NewListing[],
  isin: string,
  quoteType: string,
  homeCurrency: string | null = null,
): NewListing | undefined {
  const country = isin.slice(0, 2).toUpperCase();
  const home = (l: NewListing) =>
    quoteType === "EQUITY" && l.countries.includes(country) && l.currency === l.venueCurrency ? 1 : 0;
  const inHomeCurrency = (l: NewListing) => (homeCurrency !== null && l.currency === homeCurrency ? 1 : 0);
  const byte = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...candidates].sort(
    (a, b) =>
      home(b) - home(a) ||
      inHomeCurrency(b) - inHomeCurrency(a) ||
      b.tradedValue - a.tradedValue ||
      byte(a.exchange, b.exchange) ||
      byte(a.ticker, b.ticker),
  )[0];
}

/** Words of a company's name that say its legal form, not which company it is. */
const LEGAL_FORMS = new Set(
  "inc incorporated corp corporation co company plc ltd limited llc lp ag se sa nv bv ab asa as oyj abp spa sca kgaa gmbh holding holdings group the class a b c shs ord".split(
    " ",
  ),
);

const nameWords = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !LEGAL_FORMS.has(w));

/**
 * Whether two providers' names are one company's: the first distinctive word agrees and half the
 * distinctive words are shared. A source that states an ISIN for a ticker is believed for the
 * line only when it names the same company (a ticker means different companies on different venues).
 * @example sameCompany("SAP SE", "SAP SE O.N.") // true
 */
export function sameCompany(a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  const wa = nameWords(a);
  const wb = nameWords(b);
  if (wa.length === 0 || wb.length === 0 || wa[0] !== wb[0]) return false;
  const shared = wa.filter((w) => wb.includes(w)).length;
  return shared * 2 >= Math.min(wa.length, wb.length);
}

/**
 * Whether a name-search hit is the line of an instrument a directory named (its name, its ticker):
 * its ticker is the stated one, or its name is the stated name word for word once legal forms are
 * left out. Nothing fuzzier: a line attached to the wrong ISIN could never be moved to its own (a
 * fund's Acc and Dist classes, "Apple Hospitality REIT" and "Apple Inc." share most words).
 * @example isStatedLine({ symbol: "IWDA.AS", name: "iShares Core MSCI World UCITS ETF" }, { symbol: "IWDA", name: "iShares Core MSCI World UCITS ETF" }) // true
 */
export function isStatedLine(
  hit: { symbol: string; name: string | null },
  stated: { symbol: string; name: string },
): boolean {
  const ticker = stated.symbol.trim().toUpperCase();
  if (ticker !== "" && splitSuffix(hit.symbol).base === ticker) return true;
  return hit.name !== null && nameWords(hit.name).join(" ") === nameWords(stated.name).join(" ");
}

/** The key under which a miss is remembered. */
export const missKey = (asked: { isin: string } | { symbol: string; exchange?: string }): string =>
  "isin" in asked
    ? `isin:${asked.isin}`
    : `symbol:${asked.symbol.toUpperCase()}${asked.exchange ? `@${asked.exchange.toUpperCase()}` : ""}`;

/** The median of close × volume over bars (0 without any). */
export function medianTradedValue(bars: readonly { close: number; volume: number }[]): number {
  const values = bars.map((b) => b.close * b.volume).sort((a, b) => a - b);
  if (values.length === 0) return 0;
  const mid = Math.floor(values.length / 2);
  return values.length % 2 ? (values[mid] ?? 0) : ((values[mid - 1] ?? 0) + (values[mid] ?? 0)) / 2;
}
