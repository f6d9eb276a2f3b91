import { changeFrom } from "../../domain/decimal";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import type { Quote } from "../../providers/delayed/client";
import { ProviderError } from "../../providers/errors";
import { readThrough } from "../shared/read-through";

export interface OverviewEntry {
  quote: Quote;
  change: number | null;
  changePercent: number | null;
}

export interface StocksOverview {
  entries: OverviewEntry[];
  errors: { symbol: string; message: string }[];
}

function withChange(quote: Quote): OverviewEntry {
  const c = changeFrom(quote.price, quote.previousClose);
  return { quote, change: c ? c.change.toNumber() : null, changePercent: c?.percent ? c.percent.toNumber() : null };
}

/**
 * Legacy GET /stocks: delayed-provider quotes of STOCKS_OVERVIEW_TICKERS, queried as typed (spec
 * Versioning). A symbol that fails is listed in `errors`; the others still answer. Cached 60 seconds.
 */
export async function getStocksOverview({ ctx }: { ctx: Context }): Promise<StocksOverview> {
  const tickers = ctx.config.STOCKS_OVERVIEW_TICKERS;
  const key = cacheKeys.stocksOverview(tickers);
  const load = async (): Promise<StocksOverview> => {
    const settled = await Promise.allSettled(tickers.map((t) => ctx.providers.delayed.quote(t)));
    const out: StocksOverview = { entries: [], errors: [] };
    settled.forEach((r, i) => {
      const symbol = tickers[i] ?? "";
      if (r.status === "fulfilled") out.entries.push(withChange(r.value));
      else if (r.reason instanceof ProviderError) out.errors.push({ symbol, message: r.reason.message });
      else throw r.reason;
    });
    return out;
  };
  // A partial answer is not cached: the next call retries the failed symbols.
  return (
    await readThrough(ctx, {
      key,
      ttlSeconds: cacheTtls(ctx.config).stocks_overview,
      build: load,
      shouldCache: (out) => out.errors.length === 0,
    })
  ).value;
}
