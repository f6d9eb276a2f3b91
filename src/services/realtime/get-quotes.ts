import type { Context } from "../../platform/context";
import { findQuote, type QuoteAnswer } from "./get-quote";

/** A ticker of GET /quotes as the route read it: a symbol, or what is wrong with it. */
export type RequestedTicker = { ticker: string; symbol: string } | { ticker: string; problem: string };

export interface QuotesAnswer {
  count: number;
  tickers: string[];
  quotes: Record<string, QuoteAnswer | null>;
  /** Ticker -> why its quote is null. */
  errors: Record<string, string>;
}

/**
 * GET /quotes: each ticker's quote (never starting a stream), or null with the reason: not a symbol,
 * unknown to the provider, or the provider failing. One bad ticker spoils only itself.
 */
export async function getQuotes({
  ctx,
  input,
}: {
  ctx: Context;
  input: { tickers: RequestedTicker[] };
}): Promise<QuotesAnswer> {
  const quotes: Record<string, QuoteAnswer | null> = {};
  const errors: Record<string, string> = {};
  await Promise.all(
    input.tickers.map(async (t) => {
      quotes[t.ticker] = null;
      if ("problem" in t) {
        errors[t.ticker] = `not a symbol: ${t.problem}`;
        return;
      }
      const found = await findQuote(ctx, t.symbol);
      if (found.quote) quotes[t.ticker] = found.quote;
      else errors[t.ticker] = "failed" in found ? found.failed.message : `no quote: ${found.missing}`;
    }),
  );
  const tickers = input.tickers.map((t) => t.ticker);
  // Keys in the order asked, whatever order the answers came in.
  return {
    count: tickers.length,
    tickers,
    quotes: Object.fromEntries(tickers.map((t) => [t, quotes[t] ?? null])),
    errors,
  };
}
