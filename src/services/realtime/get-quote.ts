import { changeFrom, toDecimalString } from "../../domain/decimal";
import { NoDataError } from "../../domain/errors";
import { DELAYED, type ProviderName, STREAM } from "../../domain/provider-names";
import type { RealtimeTick } from "../../domain/realtime";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { convertQuote, type PricedQuote, type QuoteConversion } from "../fx/convert-quote";
import { asServiceError } from "../provider-failure";

/** The spec's Quote: the prices a conversion converts, and the rest. */
export interface QuoteAnswer extends PricedQuote {
  change_pct: string;
  volume: number | null;
  is_realtime: boolean;
  source: ProviderName;
  delay_seconds: number;
  /** With convert=: the answer's currency, and the rate used. */
  currency?: string;
  fx?: QuoteConversion;
}

/** The delayed provider's delay for venues quoted 15 minutes late (spec Limits: delay_seconds 900). */
const DELAYED_SECONDS = 900;

/** A streamed tick as a quote: no previous close in a tick, so change is "0" and previous_close null (spec). */
function fromTick(t: RealtimeTick): QuoteAnswer {
  return {
    ticker: t.ticker,
    price: t.close,
    open: t.open,
    high: t.high,
    low: t.low,
    close: t.close,
    change: "0",
    change_pct: "0",
    volume: t.volume,
    previous_close: null,
    timestamp: t.timestamp,
    is_realtime: true,
    source: STREAM,
    delay_seconds: 0,
  };
}

/** The ticker's fresh streamed tick: the shared cache, else (no Upstash: each isolate has its own LRU) its object. */
async function streamedTick(ctx: Context, ticker: string): Promise<RealtimeTick | null> {
  const cached = await ctx.cache.get<RealtimeTick>(cacheKeys.quote(ticker));
  if (cached || ctx.cache.backend !== "memory" || !ctx.streams) return cached;
  const streams = ctx.streams;
  try {
    // Only a streamed ticker's object is asked: asking wakes (or creates) it.
    return (await streams.list()).includes(ticker) ? await streams.lastFreshTick(ticker) : null;
  } catch (err) {
    console.warn("asking the stream object for its tick failed", ticker, String(err));
    return null;
  }
}

/**
 * A quote and the currency its prices are in (the provider's, e.g. GBp; null for a streamed tick,
 * which names none: its listing's), or why there is none: `missing` when the provider knows no
 * such ticker, `failed` when it could not answer.
 */
export type QuoteLookup =
  | { quote: QuoteAnswer; currency: string | null }
  | { quote: null; missing: string }
  | { quote: null; failed: ProviderError };

/** The last tick when the ticker is streamed, else the delayed provider's quote of the ticker as typed. */
export async function findQuote(ctx: Context, ticker: string): Promise<QuoteLookup> {
  const tick = await streamedTick(ctx, ticker);
  if (tick) return { quote: fromTick(tick), currency: null };
  try {
    const q = await ctx.providers.delayed.quote(ticker);
    const c = changeFrom(q.price, q.previousClose);
    const d = (x: number | null) => (x === null ? null : toDecimalString(x, 8));
    return {
      currency: q.currency,
      quote: {
        ticker,
        price: toDecimalString(q.price, 8),
        open: d(q.open),
        high: d(q.high),
        low: d(q.low),
        close: toDecimalString(q.price, 8),
        change: c ? c.change.toDecimalPlaces(8).toFixed() : "0",
        change_pct: c?.percent ? c.percent.toFixed() : "0",
        volume: q.volume,
        previous_close: d(q.previousClose),
        timestamp: new Date(q.marketTime === null ? ctx.clock.now().getTime() : q.marketTime * 1000).toISOString(),
        is_realtime: false,
        source: DELAYED,
        delay_seconds: DELAYED_SECONDS,
      },
    };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    return err.failure === "not_found" ? { quote: null, missing: err.detail } : { quote: null, failed: err };
  }
}

/**
 * GET /quote/{ticker}: the streamed tick first, else the delayed quote; 404 only when the provider
 * knows no such ticker, 503 when it failed. With `subscribe_if_missing` and a full-access key, a
 * ticker that is not streamed starts streaming in the background (`background` receives the
 * promise); a read-only key never starts a stream.
 */
export async function getQuote({
  ctx,
  input,
}: {
  ctx: Context;
  input: {
    ticker: string;
    subscribeIfMissing: boolean;
    fullAccess: boolean;
    background: (p: Promise<unknown>) => void;
    /** Answer in this currency (services/fx/convert-quote). */
    convert?: string;
  };
}): Promise<QuoteAnswer> {
  const found = await findQuote(ctx, input.ticker);
  if (input.subscribeIfMissing && input.fullAccess && !found.quote?.is_realtime && ctx.streams) {
    input.background(
      ctx.streams
        .start(input.ticker)
        .catch((err: unknown) => console.warn("background subscribe failed", input.ticker, String(err))),
    );
  }
  if (found.quote) return input.convert ? convertQuote(ctx, found.quote, found.currency, input.convert) : found.quote;
  if ("failed" in found) throw asServiceError(found.failed, input.ticker);
  throw new NoDataError(`No quote found for ${input.ticker}`, found.missing);
}
