import type { ListingRow } from "../../db/repositories/catalogue";
import { type CatalogueHit, cataloguedSymbols, searchCatalogue } from "../../db/repositories/search";
import { BadRequestError } from "../../domain/errors";
import { preferredShown } from "../../domain/listing-choice";
import { DELAYED } from "../../domain/provider-names";
import type { MatchKind } from "../../domain/search";
import { isCatalogued, searchTerms, symbolForms } from "../../domain/search";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import type { SearchHit } from "../../providers/delayed/search";
import { ProviderError } from "../../providers/errors";

export interface CatalogueResult {
  in_catalogue: true;
  match: MatchKind;
  score: number;
  hit: CatalogueHit;
  preferred: ListingRow | undefined;
}

export interface ProviderResult {
  in_catalogue: false;
  match: "provider";
  hit: SearchHit;
}

export interface SearchAnswer {
  query: string;
  results: (CatalogueResult | ProviderResult)[];
  provider: { name: string; status: "ok" | "not_asked" | "unavailable"; cache_hit: boolean; message?: string };
}

type ProviderPart = { hits: SearchHit[] } | { failure: string };

/** The delayed provider's hits of a query, asked (on a cache miss) and cached; a failure is the answer's note, never its end. */
async function askProvider(ctx: Context, text: string): Promise<ProviderPart> {
  let part: ProviderPart;
  try {
    part = { hits: await ctx.providers.delayed.search(text) };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    return { failure: err.message };
  }
  ctx.journal.defer(ctx.cache.set(cacheKeys.search(text), part, cacheTtls(ctx.config).search));
  return part;
}

/** Every form of the hits' symbols a catalogue listing may carry. */
const formsOf = (hits: readonly SearchHit[]) => [...new Set(hits.flatMap((h) => symbolForms(h.symbol)))];

/**
 * GET /search: the catalogue's instruments by ticker, ISIN, name prefix and near-miss name (one
 * indexed statement), then, while `limit` leaves room, what the delayed provider's search finds
 * that the catalogue lacks. The provider is not asked when the catalogue fills the answer.
 * Its cached part is read first, so that which of its symbols the catalogue has is asked in the
 * statement's round trip: a warm search is one cache read and one database round trip.
 */
export async function search({
  ctx,
  input,
}: {
  ctx: Context;
  input: { q: string; limit: number };
}): Promise<SearchAnswer> {
  const terms = searchTerms(input.q, input.limit);
  if (terms.text === "") throw new BadRequestError("Parameter 'q' needs a ticker, ISIN or name to look for");
  const cached = await ctx.cache.get<{ hits: SearchHit[] }>(cacheKeys.search(terms.text));
  const { hits: found, catalogued } = await searchCatalogue(ctx.db, terms, cached ? formsOf(cached.hits) : []);
  const results: SearchAnswer["results"] = found.map((hit) => ({
    in_catalogue: true,
    match: hit.match,
    score: hit.score,
    hit,
    preferred: preferredShown(hit.listings),
  }));
  const room = input.limit - results.length;
  if (room <= 0)
    return { query: terms.text, results, provider: { name: DELAYED, status: "not_asked", cache_hit: false } };

  const part = cached ?? (await askProvider(ctx, terms.text));
  if ("failure" in part)
    return {
      query: terms.text,
      results,
      provider: { name: DELAYED, status: "unavailable", cache_hit: false, message: part.failure },
    };
  const known = cached ? catalogued : await cataloguedSymbols(ctx.db, formsOf(part.hits));
  const seen = new Set<string>();
  for (const h of part.hits) {
    if (results.length >= input.limit) break;
    if (seen.has(h.symbol) || isCatalogued(h, known)) continue;
    seen.add(h.symbol);
    results.push({ in_catalogue: false, match: "provider", hit: h });
  }
  return { query: terms.text, results, provider: { name: DELAYED, status: "ok", cache_hit: cached !== null } };
}
