import { ServiceError } from "../../domain/errors";
import type { Context } from "../../platform/context";
import { convertTarget } from "../fx/convert";
import { convertQuote } from "../fx/convert-quote";
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
 * unknown to the provider, or the provider failing. One bad ticker spoils only itself. With
 * `convert`, each quote in that currency (one whose currency has no rates: null, and why).
 */
export async function getQuotes({
  ctx,
  input,
}: {
  ctx: Context;
  input: { tickers: RequestedTicker[]; convert?: string };
}): Promise<QuotesAnswer> {
  // A currency without rates is the request's fault: a 400 before any quote is asked.
  if (input.convert) convertTarget(input.convert);
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
      if (!found.quote) {
        errors[t.ticker] = "failed" in found ? found.failed.message : `no quote: ${found.missing}`;
        return;
      }
      if (!input.convert) {
        quotes[t.ticker] = found.quote;
        return;
      }
      try {
        quotes[t.ticker] = await convertQuote(ctx, found.quote, found.currency, input.convert);
      } catch (err) {
        // A quote that cannot be converted (its currency has no rates, the ECB failed) costs itself only.
        if (!(err instanceof ServiceError)) throw err;
        errors[t.ticker] = `not converted: ${err.message}`;
      }
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
