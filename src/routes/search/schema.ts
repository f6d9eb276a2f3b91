import { z } from "@hono/zod-openapi";
import { MATCH_KINDS } from "../../domain/search";
import type { SearchAnswer } from "../../services/search/search";
import { ListingSchema, toListing } from "../catalogue/schema";

const CatalogueResultSchema = z
  .object({
    in_catalogue: z.literal(true),
    match: z.enum(MATCH_KINDS).openapi({
      description:
        "Why it matched, best first: a listing's ticker or provider symbol, the ISIN, a name starting with the query, a name within a few typos",
    }),
    score: z.number().openapi({ example: 0.57, description: "Word similarity of the query to the name (0 to 1)" }),
    asset_id: z.number().int(),
    isin: z.string().openapi({ example: "US0378331005" }),
    name: z.string().openapi({ example: "Apple Inc." }),
    quote_type: z.string().openapi({ example: "EQUITY" }),
    sector: z.string().nullable(),
    industry: z.string().nullable(),
    ticker: z
      .string()
      .nullable()
      .openapi({ example: "AAPL", description: "The preferred listing's ticker (as /eod picks it)" }),
    exchange: z.string().nullable().openapi({ example: "NASDAQ" }),
    currency: z.string().nullable().openapi({ example: "USD" }),
    listings: z.array(ListingSchema),
  })
  .openapi("SearchCatalogueResult");

const ProviderResultSchema = z
  .object({
    in_catalogue: z.literal(false),
    match: z.literal("provider"),
    symbol: z.string().openapi({ example: "APLE", description: "The delayed provider's symbol" }),
    name: z.string().nullable().openapi({ example: "Apple Hospitality REIT, Inc." }),
    exchange: z.string().nullable().openapi({ example: "NYQ", description: "The provider's exchange code" }),
    quote_type: z.string().nullable().openapi({ example: "EQUITY" }),
  })
  .openapi("SearchProviderResult");

export const SearchAnswerSchema = z
  .object({
    query: z.string().openapi({ example: "aple", description: "The query as read (trimmed, inner spaces collapsed)" }),
    count: z.number().int(),
    results: z.array(z.union([CatalogueResultSchema, ProviderResultSchema])).openapi({
      description:
        "Catalogue instruments first, ranked; then the provider's finds the catalogue lacks, while `limit` leaves room",
    }),
    provider: z
      .object({
        name: z.string().openapi({ example: "delayed_provider" }),
        status: z.enum(["ok", "not_asked", "unavailable"]).openapi({
          description:
            "not_asked: the catalogue filled `limit`; unavailable: the provider failed (the catalogue part stands)",
        }),
        cache_hit: z.boolean().openapi({ description: "The provider's hits came from the cache (kept a day)" }),
        message: z.string().optional(),
      })
      .openapi({ description: "The delayed provider's part of the answer" }),
  })
  .openapi("SearchAnswer");
export type SearchBody = z.infer<typeof SearchAnswerSchema>;

export function toSearchBody(a: SearchAnswer): SearchBody {
  return {
    query: a.query,
    count: a.results.length,
    results: a.results.map((r) =>
      r.in_catalogue
        ? {
            in_catalogue: true as const,
            match: r.match,
            score: Math.round(r.score * 100) / 100,
            asset_id: r.hit.assetId,
            isin: r.hit.isin,
            name: r.hit.name,
            quote_type: r.hit.quoteType,
            sector: r.hit.sector,
            industry: r.hit.industry,
            ticker: r.preferred?.ticker ?? null,
            exchange: r.preferred?.exchange ?? null,
            currency: r.preferred?.currency ?? null,
            listings: r.hit.listings.map(toListing),
          }
        : {
            in_catalogue: false as const,
            match: "provider" as const,
            symbol: r.hit.symbol,
            name: r.hit.name,
            exchange: r.hit.exchange,
            quote_type: r.hit.quoteType,
          },
    ),
    provider: a.provider,
  };
}
