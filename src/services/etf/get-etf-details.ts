import { latestFundDetails, latestSnapshot } from "../../db/repositories/fundamentals";
import { NoDataError } from "../../domain/errors";
import { DELAYED } from "../../domain/provider-names";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { noteOf, refreshFromDelayed } from "../fundamentals/refresh";
import { readThrough } from "../shared/read-through";
import { type Instrument, resolveInstrument } from "../shared/resolve-instrument";

export interface EtfDetails {
  isin: string;
  ticker: string;
  name: string;
  issuer: string | null;
  category: string | null;
  legal_type: string | null;
  currency: string;
  /** Ratios: 0.0007 is 0.07 % a year. */
  expense_ratio: number | null;
  yield: number | null;
  total_assets: number | null;
  inception_date: string | null;
  top_holdings: { symbol: string; name: string; weight: number | null }[];
  sector_weights: { sector: string; weight: number }[];
  asset_classes: Record<string, number | null>;
  meta: {
    source: typeof DELAYED | "database";
    symbol: string | null;
    fetch_date: string | null;
    fetched_at: string | null;
    cache_hit: boolean;
    note?: string;
  };
}

const numberOf = (v: number | string | null | undefined) => (typeof v === "number" ? v : null);
const textOf = (v: number | string | null | undefined) => (typeof v === "string" ? v : null);

/**
 * GET /etf/{isin}/details: a catalogue ETF's fund data from the delayed provider's fund modules,
 * fetched with the verified symbol of the listing /eod would choose, stored with its fetch date,
 * answered from the database (with a note) when the provider cannot be asked. Cached 24 hours.
 */
export async function getEtfDetails({ ctx, input }: { ctx: Context; input: { isin: string } }): Promise<EtfDetails> {
  const instrument = await resolveInstrument({ ctx, input: { isin: input.isin } });
  const { listing, asset } = instrument;
  if (asset.quoteType !== "ETF")
    throw new NoDataError(
      `No ETF details for ${listing.isin}`,
      `${listing.isin} is not an ETF: ${asset.name} is ${asset.quoteType === "EQUITY" ? "a share" : `of type ${asset.quoteType}`}`,
    );
  // One fetch per listing at a time: concurrent first requests take its answer. Only an answer the
  // provider gave is cached (one from the database is asked again next time).
  const { value } = await readThrough(ctx, {
    key: cacheKeys.etf(listing.isin),
    ttlSeconds: cacheTtls(ctx.config).fundamentals_deep,
    lease: { listingId: listing.id, scope: "etf" },
    build: () => fetchAndAnswer(ctx, instrument),
    shouldCache: (answer) => answer.meta.source === DELAYED,
    asHit: (cached) => ({ ...cached, meta: { ...cached.meta, cache_hit: true } }),
  });
  return value;
}

async function fetchAndAnswer(ctx: Context, instrument: Instrument): Promise<EtfDetails> {
  const { listing, asset } = instrument;
  const r = await refreshFromDelayed(ctx, instrument);
  const [snapshot, details] = await Promise.all([
    latestSnapshot(ctx.db, asset.id, listing.currency, ctx.clock.today()),
    latestFundDetails(ctx.db, asset.id),
  ]);
  const h = snapshot?.highlights ?? {};
  const p = snapshot?.profile ?? {};
  const answer: EtfDetails = {
    isin: listing.isin,
    ticker: listing.ticker,
    name: asset.name,
    issuer: textOf(p.fund_family),
    category: textOf(p.fund_category),
    legal_type: textOf(p.legal_type),
    currency: listing.currency,
    expense_ratio: numberOf(h.expense_ratio),
    yield: numberOf(h.fund_yield),
    total_assets: numberOf(h.total_assets),
    inception_date: textOf(h.fund_inception_date),
    top_holdings: details?.details.topHoldings ?? [],
    sector_weights: details?.details.sectorWeights ?? [],
    asset_classes: details?.details.assetClasses ?? {},
    meta: {
      source: r.status === "ok" ? DELAYED : "database",
      symbol: r.status === "ok" ? r.symbol : r.status === "error" ? r.symbol : null,
      fetch_date: details?.fetchDate ?? snapshot?.fetchDate ?? null,
      fetched_at: (details?.fetchedAt ?? snapshot?.fetchedAt)?.toISOString() ?? null,
      cache_hit: false,
      ...(r.status === "ok" ? {} : { note: noteOf(r, "the stored fund data is shown") }),
    },
  };
  return answer;
}
