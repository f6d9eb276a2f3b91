import { z } from "@hono/zod-openapi";
import type { AssetWithListings } from "../../services/catalogue/get-asset-by-isin";
import type { ListingRow } from "../../services/shared/resolve-listing";

export const ListingSchema = z
  .object({
    id: z.number().int(),
    asset_id: z.number().int(),
    ticker: z.string(),
    exchange: z.string().nullable(),
    currency: z.string(),
    isin: z.string(),
    name: z.string(),
    source: z.string(),
    is_primary: z.boolean(),
    is_active: z.boolean(),
  })
  .openapi("Listing");
export type Listing = z.infer<typeof ListingSchema>;

export const AssetSchema = z
  .object({
    asset_id: z.number().int(),
    name: z.string(),
    ticker: z.string().nullable(),
    exchange: z.string().nullable(),
    currency: z.string().nullable(),
    sector: z.string().nullable(),
    industry: z.string().nullable(),
    quote_type: z.string(),
    isin: z.string(),
    listing_id: z.number().int().nullable(),
    listings: z.array(ListingSchema),
    display_name: z.string().optional(),
    official_symbol: z.string().optional(),
    logo_path: z.string().optional(),
    ir_website: z.string().optional(),
    long_business_summary: z.string().optional(),
  })
  .openapi("Asset");
export type Asset = z.infer<typeof AssetSchema>;

export const ListingsAnswerSchema = z
  .object({ count: z.number().int(), listings: z.array(ListingSchema) })
  .openapi("ListingsAnswer");
export type ListingsAnswer = z.infer<typeof ListingsAnswerSchema>;

export function toListing(l: ListingRow): Listing {
  return {
    id: l.id,
    asset_id: l.assetId,
    ticker: l.ticker,
    exchange: l.exchange,
    currency: l.currency,
    isin: l.isin,
    name: l.name,
    source: l.source,
    is_primary: l.isPrimary,
    is_active: l.isActive,
  };
}

export function toAsset({ asset, preferred, listings }: AssetWithListings): Asset {
  const out: Asset = {
    asset_id: asset.id,
    name: asset.name,
    ticker: preferred?.ticker ?? null,
    exchange: preferred?.exchange ?? null,
    currency: preferred?.currency ?? null,
    sector: asset.sector,
    industry: asset.industry,
    quote_type: asset.quoteType,
    isin: asset.isin,
    listing_id: preferred?.id ?? null,
    listings: listings.map(toListing),
  };
  // Optional fields appear only when known (spec: Instrument).
  if (asset.displayName) out.display_name = asset.displayName;
  if (asset.officialSymbol) out.official_symbol = asset.officialSymbol;
  if (asset.logoPath) out.logo_path = asset.logoPath;
  if (asset.irWebsite) out.ir_website = asset.irWebsite;
  if (asset.longBusinessSummary) out.long_business_summary = asset.longBusinessSummary;
  return out;
}
