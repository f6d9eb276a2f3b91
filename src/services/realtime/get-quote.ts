import { cacheKeys } from "../../cache";
import { changeFrom, toDecimalString } from "../../domain/decimal";
import type { RealtimeTick } from "../../domain/realtime";
import type { Deps } from "../../deps";
import { NotFoundError } from "../../errors";
import { ProviderError } from "../../providers/errors";

/** The spec's Quote. */
export interface QuoteAnswer {
  ticker: string;
  price: string;
  open: string | null;
  high: string | null;
  low: string | null;
  close: string;
  change: string;
  change_pct: string;
  volume: number | null;
  previous_close: string | null;
  timestamp: string;
  is_realtime: boolean;
  source: "stream_provider" | "delayed_provider";
  delay_seconds: number;
}

/** The delayed provider's delay for venues quoted 15 minutes late (spec Limits: delay_seconds 900). */
const DELAYED_SECONDS = 900;

/** A streamed tick as a quote: no previous close in a tick, so change is "0" and previous_close null (spec). */
function fromTick(t: RealtimeTick): QuoteAnswer {
  return { ticker: t.ticker, price: t.close, open: t.open, high: t.high, low: t.low, close: t.close, change: "0", change_pct: "0", volume: t.volume, previous_close: null, timestamp: t.timestamp, is_realtime: true, source: "stream_provider", delay_seconds: 0 };
}

/** The last tick when the ticker is streamed, else the delayed provider's quote of the ticker as typed, else null. */
export async function findQuote(ctx: Deps, ticker: string): Promise<QuoteAnswer | null> {
  const tick = await ctx.cache.get<RealtimeTick>(cacheKeys.quote(ticker));
  if (tick) return fromTick(tick);
  try {
    const q = await ctx.providers.delayed.quote(ticker);
    const c = changeFrom(q.price, q.previousClose);
    const d = (x: number | null) => (x === null ? null : toDecimalString(x, 8));
    return {
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
      timestamp: new Date((q.marketTime ?? Date.now() / 1000) * 1000).toISOString(),
      is_realtime: false,
      source: "delayed_provider",
      delay_seconds: DELAYED_SECONDS,
    };
  } catch (err) {
    if (err instanceof ProviderError) return null;
    throw err;
  }
}

/**
 * GET /quote/{ticker}: the streamed tick first, else the delayed quote, else 404. With
 * `subscribe_if_missing` and a full-access key, a ticker that is not streamed starts streaming in
 * the background (`background` receives the promise); a read-only key never starts a stream.
 */
export async function getQuote({ ctx, input }: { ctx: Deps; input: { ticker: string; subscribeIfMissing: boolean; fullAccess: boolean; background: (p: Promise<unknown>) => void } }): Promise<QuoteAnswer> {
  const quote = await findQuote(ctx, input.ticker);
  if (input.subscribeIfMissing && input.fullAccess && !quote?.is_realtime && ctx.streams) {
    input.background(ctx.streams.start(input.ticker).catch((err: unknown) => console.warn("background subscribe failed", input.ticker, String(err))));
  }
  if (!quote) throw new NotFoundError("Quote of ticker", input.ticker);
  return quote;
}
