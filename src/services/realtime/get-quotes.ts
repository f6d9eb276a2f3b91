import { ServiceError } from "../../domain/errors";
import type { Context } from "../../platform/context";
import { convertTarget } from "../fx/convert";
import { convertQuotes } from "../fx/convert-quote";
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
  const found: { ticker: string; quote: QuoteAnswer; quoted: string | null }[] = [];
  await Promise.all(
    input.tickers.map(async (t) => {
      quotes[t.ticker] = null;
      if ("problem" in t) {
        errors[t.ticker] = `not a symbol: ${t.problem}`;
        return;
      }
      const f = await findQuote(ctx, t.symbol);
      if (f.quote) found.push({ ticker: t.ticker, quote: f.quote, quoted: f.currency });
      else errors[t.ticker] = "failed" in f ? f.failed.message : `no quote: ${f.missing}`;
    }),
  );
  // Converted with one read of the rates; a quote that cannot be converted costs itself only.
  const converted = input.convert ? await convertQuotes(ctx, found, input.convert) : found.map((f) => f.quote);
  found.forEach((f, i) => {
    const c = converted[i];
    if (c instanceof ServiceError) errors[f.ticker] = `not converted: ${c.message}`;
    else quotes[f.ticker] = c ?? null;
  });
  const tickers = input.tickers.map((t) => t.ticker);
  // Keys in the order asked, whatever order the answers came in.
  return {
    count: tickers.length,
    tickers,
    quotes: Object.fromEntries(tickers.map((t) => [t, quotes[t] ?? null])),
    errors,
  };
}
