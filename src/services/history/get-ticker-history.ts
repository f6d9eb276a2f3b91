import type { Bar } from "../../domain/bars";
import { fetchFromOf, type Period, windowOf } from "../../domain/periods";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import type { Interval } from "../../providers/delayed/client";
import { givenRange } from "../date-range";
import { asServiceError } from "../provider-failure";
import { readThrough } from "../shared/read-through";

export interface HistoryQuery {
  symbol: string;
  period: Period;
  from?: string;
  to?: string;
  interval: Interval;
}

export interface TickerHistory {
  symbol: string;
  currency: string | null;
  exchange: string | null;
  interval: Interval;
  from: string;
  to: string;
  bars: Bar[];
}

/**
 * GET /ticker/{symbol}/history: bars of a delayed-provider symbol as typed (the workspace's history
 * chart takes any symbol, catalogue or not). Cached with the ticker's EOD answers, 24 hours.
 */
export async function getTickerHistory({ ctx, input }: { ctx: Context; input: HistoryQuery }): Promise<TickerHistory> {
  const today = ctx.clock.today();
  const range = givenRange(input.from, input.to);
  const from = range?.from ?? fetchFromOf(input.period, today);
  const to = range?.to ?? today;
  const key = cacheKeys.eod(input.symbol, `HISTORY:${input.interval}:${from}:${to}:${input.period}`.toUpperCase());
  const load = async (): Promise<TickerHistory> => {
    try {
      const h = await ctx.providers.delayed.history(input.symbol, from, to, input.interval);
      const lastBars = input.from === undefined ? windowOf(input.period, today).lastBars : null;
      const bars = lastBars ? h.bars.slice(-lastBars) : h.bars;
      return { symbol: h.symbol, currency: h.currency, exchange: h.exchange, interval: input.interval, from, to, bars };
    } catch (err) {
      throw asServiceError(err, input.symbol);
    }
  };
  return (await readThrough(ctx, { key, ttlSeconds: cacheTtls(ctx.config).eod, build: load })).value;
}
