import { cacheKeys, cacheTtls } from "../../cache";
import type { Bar } from "../../domain/bars";
import { addDays } from "../../domain/ingest-plan";
import { type Period, windowOf } from "../../domain/periods";
import type { Deps } from "../../deps";
import { BadRequestError } from "../../errors";
import type { Interval } from "../../providers/delayed/client";
import { asServiceError } from "../provider-failure";

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

/** `max` and the bar-size periods reach back as far as the provider serves. */
const EARLIEST = "1970-01-01";

/**
 * GET /ticker/{symbol}/history: bars of a delayed-provider symbol as typed (the workspace's history
 * chart takes any symbol, catalogue or not). Cached with the ticker's EOD answers, 24 hours.
 */
export async function getTickerHistory({ ctx, input }: { ctx: Deps; input: HistoryQuery }): Promise<TickerHistory> {
  const today = new Date().toISOString().slice(0, 10);
  let from: string;
  let to = today;
  if (input.from !== undefined || input.to !== undefined) {
    if (input.from === undefined || input.to === undefined) throw new BadRequestError("from and to must be given together");
    if (input.from > input.to) throw new BadRequestError(`from (${input.from}) is after to (${input.to})`);
    from = input.from;
    to = input.to;
  } else {
    const w = windowOf(input.period, today);
    // 1d and 5d mean the last sessions: a fortnight of calendar days holds them.
    from = w.from ?? (w.lastBars ? addDays(today, -14) : EARLIEST);
  }
  const key = cacheKeys.eod(input.symbol, `HISTORY:${input.interval}:${from}:${to}:${input.period}`.toUpperCase());
  const cached = await ctx.cache.get<TickerHistory>(key);
  if (cached) return cached;
  try {
    const h = await ctx.providers.delayed.history(input.symbol, from, to, input.interval);
    const lastBars = input.from === undefined ? windowOf(input.period, today).lastBars : null;
    const bars = lastBars ? h.bars.slice(-lastBars) : h.bars;
    const answer: TickerHistory = { symbol: h.symbol, currency: h.currency, exchange: h.exchange, interval: input.interval, from, to, bars };
    await ctx.cache.set(key, answer, cacheTtls(ctx.config).eod);
    return answer;
  } catch (err) {
    throw asServiceError(err, input.symbol);
  }
}
