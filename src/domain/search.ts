import { isVenueOf, splitSuffix } from "./provider-symbols";

/**
 * The rules of GET /search that need no database: how a query is read, and which of the delayed
 * provider's hits the catalogue already has.
 */

/** The least pg_trgm word similarity a near miss needs: "aple" finds Apple Inc. (0.57), "mircosoft" Microsoft (0.43). */
export const FUZZY_THRESHOLD = 0.4;
/** Shorter queries are matched by ticker, ISIN and name prefix only: one letter is not a typo of a word. */
const FUZZY_MIN_LENGTH = 3;

/** A query as the catalogue's search reads it (`repositories/search`'s `CatalogueSearch`). */
export function searchTerms(query: string, limit: number) {
  const text = query.trim().replace(/\s+/g, " ");
  return {
    text,
    code: text.toUpperCase(),
    // LIKE's wildcards in the query are the characters themselves.
    prefix: `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    fuzzy: text.length >= FUZZY_MIN_LENGTH,
    threshold: FUZZY_THRESHOLD,
    limit,
  };
}

/** Every form of a provider symbol a catalogue listing may carry: itself, and its ticker without the venue suffix. */
export function symbolForms(symbol: string): string[] {
  const bare = splitSuffix(symbol).base;
  return bare === symbol.toUpperCase() ? [symbol.toUpperCase()] : [symbol.toUpperCase(), bare];
}

export interface ProviderHit {
  symbol: string;
  exchange: string | null;
}

/**
 * Whether a provider's hit is a catalogue listing: the listing's recorded provider symbol, or its
 * ticker (with or without the venue suffix) on that venue.
 */
export function isCatalogued(
  hit: ProviderHit,
  listings: readonly { ticker: string; exchange: string | null; delayedSymbol: string | null }[],
): boolean {
  const forms = symbolForms(hit.symbol);
  return listings.some(
    (l) =>
      l.delayedSymbol?.toUpperCase() === hit.symbol.toUpperCase() ||
      (forms.includes(l.ticker.toUpperCase()) && isVenueOf(hit.exchange, l.exchange)),
  );
}

/** How a search hit matched, best first: a hit's rank indexes this. */
export const MATCH_KINDS = ["ticker", "isin", "name_prefix", "fuzzy"] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];
