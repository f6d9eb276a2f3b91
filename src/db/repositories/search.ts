import { type SQL, sql } from "drizzle-orm";
import { MATCH_KINDS, type MatchKind } from "../../domain/search";
import type { Db } from "../client";
import type { ListingRow } from "./catalogue";

/** How a catalogue instrument matched a search, best first (the rank the answer is ordered by). */

export interface CatalogueHit {
  match: MatchKind;
  /** pg_trgm's word similarity of the query to the name, 0 to 1. */
  score: number;
  assetId: number;
  isin: string;
  name: string;
  quoteType: string;
  sector: string | null;
  industry: string | null;
  listings: ListingRow[];
}

export interface CatalogueSearch {
  /** The query as typed (trimmed): compared with names. */
  text: string;
  /** The query upper-cased: compared with tickers, provider symbols and ISINs. */
  code: string;
  /** Names that start with the query (a LIKE pattern, its wildcards escaped). */
  prefix: string;
  /** Whether near misses of the name are looked for (a typo needs a few letters around it). */
  fuzzy: boolean;
  /** The least word similarity a near miss needs (pg_trgm.word_similarity_threshold). */
  threshold: number;
  limit: number;
}

interface HitRow extends Record<string, unknown> {
  rank: number;
  score: number;
  asset_id: number;
  isin: string;
  name: string;
  quote_type: string;
  sector: string | null;
  industry: string | null;
  listings: {
    id: number;
    ticker: string;
    exchange: string | null;
    currency: string;
    name: string;
    source: string;
    is_primary: boolean;
    is_active: boolean;
    delayed_symbol: string | null;
  }[];
}

/** A name starting with the query, case ignored: a range of the prefix index over lower(name). */
const startsWith = (s: CatalogueSearch) => sql`lower(name) LIKE lower(${s.prefix}) ESCAPE '\\'`;

/**
 * Near misses ranked, at most, for a search of `limit`. A common word ("holdings") is near tens of
 * thousands of names; ranking them all took seconds at 100,000.
 */
const nearMissesFor = (limit: number) => limit * 4 + 20;

/**
 * The instruments a search may return, each with the best way it matched (0 ticker or provider
 * symbol, 1 ISIN, 2 name prefix, 3 near miss): a UNION rather than ORs across the two tables, so
 * that each arm is served by indexes of its own (listings' ticker and delayed symbol; the unique
 * ISIN; the lowered names' pattern index for the prefix; the trigram GIN index for the near misses). When the near misses
 * are more than `nearMissesFor(limit)`, the nearest of them come instead from the trigram GiST
 * index over lower(name), in distance order; among many names equally near, the index chooses.
 */
export function searchCandidatesSql(s: CatalogueSearch): SQL {
  const cap = nearMissesFor(s.limit);
  const near = s.fuzzy
    ? sql`
    UNION ALL
    SELECT id, 3 FROM near WHERE (SELECT count(*) FROM near) <= ${cap}
    UNION ALL
    (SELECT id, 3 FROM assets WHERE (SELECT count(*) FROM near) > ${cap} AND lower(${s.text}) <% lower(name)
     ORDER BY lower(${s.text}) <<-> lower(name) LIMIT ${cap})`
    : sql``;
  const nearFirst = s.fuzzy
    ? sql`WITH near AS MATERIALIZED (SELECT id FROM assets WHERE ${s.text} <% name LIMIT ${cap + 1})`
    : sql``;
  return sql`
    ${nearFirst}
    SELECT asset_id AS id, 0 AS rank FROM listings WHERE ticker = ${s.code} OR delayed_symbol = ${s.code}
    UNION ALL
    SELECT id, 1 FROM assets WHERE isin = ${s.code}
    UNION ALL
    SELECT id, 2 FROM assets WHERE ${startsWith(s)}
    ${near}`;
}

/** A catalogue listing a provider's symbol names: by its ticker or its recorded provider symbol. */
export interface CataloguedSymbol {
  ticker: string;
  exchange: string | null;
  delayedSymbol: string | null;
}

/** The listings whose ticker or provider symbol is one of `symbols` (index-served). */
const cataloguedSymbolsSql = (symbols: readonly string[]) => {
  const list = sql.join(
    symbols.map((s) => sql`${s}`),
    sql`, `,
  );
  return sql`SELECT ticker, exchange, delayed_symbol FROM listings WHERE ticker IN (${list}) OR delayed_symbol IN (${list})`;
};

type SymbolRow = { ticker: string; exchange: string | null; delayed_symbol: string | null };
const toCatalogued = (r: SymbolRow): CataloguedSymbol => ({
  ticker: r.ticker,
  exchange: r.exchange,
  delayedSymbol: r.delayed_symbol,
});

/**
 * Catalogue instruments matching a search, ranked: a listing's ticker or provider symbol, then the
 * ISIN, then a name starting with the query, then a name within a few typos (pg_trgm word
 * similarity), each with all its listings. One statement over the indexed candidates; the
 * similarity threshold is set for that statement alone, in the same transaction. `symbols` (a
 * provider's hits already at hand) are looked up in the same round trip: which the catalogue has.
 */
export async function searchCatalogue(
  db: Db,
  s: CatalogueSearch,
  symbols: readonly string[] = [],
): Promise<{ hits: CatalogueHit[]; catalogued: CataloguedSymbol[] }> {
  const threshold = db.execute(
    sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(s.threshold)}, true)`,
  );
  const search = db.execute<HitRow>(sql`
      WITH candidates AS (${searchCandidatesSql(s)}),
      best AS (SELECT id, min(rank) AS rank FROM candidates GROUP BY id),
      hits AS (
        SELECT a.id, b.rank, word_similarity(${s.text}, a.name) AS score
        FROM best b JOIN assets a ON a.id = b.id
        ORDER BY b.rank, score DESC, a.name COLLATE "C", a.id
        LIMIT ${s.limit}
      )
      SELECT h.rank, h.score::float8 AS score, a.id AS asset_id, a.isin, a.name, a.quote_type, a.sector, a.industry,
        json_agg(json_build_object(
          'id', l.id, 'ticker', l.ticker, 'exchange', l.exchange, 'currency', l.currency, 'name', l.name,
          'source', l.source, 'is_primary', l.is_primary, 'is_active', l.is_active, 'delayed_symbol', l.delayed_symbol
        ) ORDER BY l.id) AS listings
      FROM hits h JOIN assets a ON a.id = h.id JOIN listings l ON l.asset_id = a.id
      GROUP BY h.rank, h.score, a.id
      ORDER BY h.rank, h.score DESC, a.name COLLATE "C", a.id`);
  const [found, catalogued] =
    symbols.length === 0
      ? [(await db.batch([threshold, search]))[1], { rows: [] as SymbolRow[] }]
      : (await db.batch([threshold, search, db.execute<SymbolRow>(cataloguedSymbolsSql(symbols))])).slice(1);
  return {
    hits: (found.rows as HitRow[]).map((r) => ({
      match: MATCH_KINDS[r.rank] ?? "fuzzy",
      score: Number(r.score),
      assetId: r.asset_id,
      isin: r.isin,
      name: r.name,
      quoteType: r.quote_type,
      sector: r.sector,
      industry: r.industry,
      listings: r.listings.map((l) => ({
        id: l.id,
        assetId: r.asset_id,
        ticker: l.ticker,
        exchange: l.exchange,
        currency: l.currency,
        isin: r.isin,
        name: l.name,
        source: l.source,
        isPrimary: l.is_primary,
        isActive: l.is_active,
        delayedSymbol: l.delayed_symbol,
        delayedSymbolCheckedAt: null,
      })),
    })),
    catalogued: (catalogued.rows as SymbolRow[]).map(toCatalogued),
  };
}

/**
 * Which of a provider's symbols name a catalogue listing: its recorded provider symbol, or its
 * ticker (`symbols` carries each hit's bare ticker too). Index-served, like the search.
 */
export async function cataloguedSymbols(db: Db, symbols: readonly string[]): Promise<CataloguedSymbol[]> {
  if (symbols.length === 0) return [];
  const rows = await db.execute<SymbolRow>(cataloguedSymbolsSql(symbols));
  return rows.rows.map(toCatalogued);
}
