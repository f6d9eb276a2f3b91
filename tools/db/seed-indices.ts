import aex from "./indices/aex.json";
import cac40 from "./indices/cac40.json";
import dax from "./indices/dax.json";
import eurostoxx50 from "./indices/eurostoxx50.json";
import ftsemib from "./indices/ftsemib.json";
import nasdaq100 from "./indices/nasdaq100.json";
import { SEED_CATALOGUE, type SeedInstrument } from "./seed-catalogue";

export { indexKey } from "../../src/domain/indices";

/**
 * Index memberships, versioned data of the project: each file of `indices/` is one composition with
 * the date it held (`as_of`) and where it was taken from (`source`); members carry their real ISIN
 * (check digits verified by test/unit/seed-indices.test.ts), the Yahoo-style ticker of the listing
 * on the index's exchange, sector and industry, and a weight (a ratio) where the source gives one.
 * Members the catalogue lacks are added to it with that listing.
 */

export interface IndexMember {
  isin: string;
  name: string;
  ticker: string;
  exchange: string;
  currency: string;
  sector: string;
  industry: string;
  country: string;
  weight: number | null;
}

export interface SeedIndex {
  /** The service's name of the index (its path segment). */
  code: string;
  name: string;
  /** The delayed provider's symbol of the index level. */
  symbol: string;
  /** Other names callers use; matched without case, spaces or punctuation. */
  aliases: string[];
  asOf: string;
  source: string;
  members: IndexMember[];
}

type IndexFile = { as_of: string; source: string; members: IndexMember[] };

const define = (code: string, name: string, symbol: string, aliases: string[], file: IndexFile): SeedIndex => ({
  code,
  name,
  symbol,
  aliases,
  asOf: file.as_of,
  source: file.source,
  members: file.members,
});

export const SEED_INDICES: readonly SeedIndex[] = [
  define("cac40", "CAC 40", "^FCHI", ["CAC 40", "CAC40", "^FCHI", "PX1"], cac40),
  define("dax", "DAX", "^GDAXI", ["DAX 40", "DAX40", "^GDAXI"], dax),
  define("aex", "AEX", "^AEX", ["AEX 25", "^AEX"], aex),
  define("ftsemib", "FTSE MIB", "FTSEMIB.MI", ["FTSE MIB", "FTSEMIB.MI", "^FTMIB"], ftsemib),
  define("eurostoxx50", "Euro Stoxx 50", "^STOXX50E", ["Euro Stoxx 50", "SX5E", "^STOXX50E", "ESTX50"], eurostoxx50),
  define("nasdaq100", "Nasdaq-100", "^NDX", ["Nasdaq 100", "NDX", "^NDX"], nasdaq100),
];

/**
 * The index members the seed catalogue does not have, as catalogue instruments: one per ISIN, with
 * the listing of each index it belongs to (the first index's listing primary).
 */
export const INDEX_INSTRUMENTS: readonly SeedInstrument[] = (() => {
  const inCatalogue = new Set(SEED_CATALOGUE.map((i) => i.isin));
  const byIsin = new Map<string, SeedInstrument>();
  for (const index of SEED_INDICES) {
    for (const m of index.members) {
      if (inCatalogue.has(m.isin)) continue;
      const known = byIsin.get(m.isin);
      if (known) {
        if (!known.listings.some((l) => l.ticker === m.ticker))
          known.listings.push({ ticker: m.ticker, exchange: m.exchange, currency: m.currency, primary: false });
        continue;
      }
      byIsin.set(m.isin, {
        isin: m.isin,
        name: m.name,
        quoteType: "EQUITY",
        sector: m.sector,
        industry: m.industry,
        country: m.country,
        listings: [{ ticker: m.ticker, exchange: m.exchange, currency: m.currency, primary: true }],
      });
    }
  }
  return [...byIsin.values()];
})();

/** Listings of catalogue instruments that only an index names (e.g. a second venue). */
export const INDEX_EXTRA_LISTINGS: readonly { isin: string; ticker: string; exchange: string; currency: string }[] =
  (() => {
    const tickers = new Set(SEED_CATALOGUE.flatMap((i) => i.listings.map((l) => l.ticker)));
    const inCatalogue = new Set(SEED_CATALOGUE.map((i) => i.isin));
    const out = new Map<string, { isin: string; ticker: string; exchange: string; currency: string }>();
    for (const index of SEED_INDICES)
      for (const m of index.members)
        if (inCatalogue.has(m.isin) && !tickers.has(m.ticker))
          out.set(m.ticker, { isin: m.isin, ticker: m.ticker, exchange: m.exchange, currency: m.currency });
    return [...out.values()];
  })();

/** Every instrument the service knows at start: the seed catalogue and the index members it lacks. */
export const FULL_CATALOGUE: readonly SeedInstrument[] = [
  ...SEED_CATALOGUE.map((i) => ({
    ...i,
    listings: [
      ...i.listings,
      ...INDEX_EXTRA_LISTINGS.filter((l) => l.isin === i.isin).map((l) => ({ ...l, primary: false })),
    ],
  })),
  ...INDEX_INSTRUMENTS,
];
