import { z } from "@hono/zod-openapi";
import { isoInstant } from "../../domain/instants";
import type { IntradayHistoryAnswer } from "../../services/intraday/get-intraday";
import { ConversionSchema } from "../eod/schema";

const BarSchema = z.object({
  timestamp: z.number().int().openapi({ example: 1795962600, description: "Epoch seconds of the bar's first minute" }),
  datetime: z.string().openapi({ example: "2026-11-30T14:30:00Z", description: "The bar's first minute, UTC" }),
  open: z.number().openapi({ example: 189.52 }),
  high: z.number().openapi({ example: 189.8 }),
  low: z.number().openapi({ example: 189.31 }),
  close: z.number().openapi({ example: 189.64 }),
  volume: z.number().int().openapi({ example: 412_803 }),
  source: z.string().openapi({
    example: "delayed_provider",
    description: "Where the bar's minutes came from: stream_provider, delayed_provider, or both joined by +",
  }),
  fx_rate: z.string().nullable().optional().openapi({ description: "With convert=: the session day's rate" }),
  fx_published: z.string().nullable().optional().openapi({ description: "With convert=: that rate's publication day" }),
});

export const IntradayAnswerSchema = z
  .object({
    listing: z.object({
      ticker: z.string().openapi({ example: "AAPL" }),
      exchange: z.string().nullable().openapi({ example: "NASDAQ" }),
      currency: z.string().openapi({ example: "USD", description: "Prices are in this currency" }),
      isin: z.string().openapi({ example: "US0378331005" }),
    }),
    interval: z.enum(["1m", "5m", "15m", "1h"]),
    time_zone: z.string().openapi({ example: "America/New_York", description: "The venue's; sessions are its days" }),
    from: z.string().openapi({ example: "2026-11-25" }),
    to: z.string().openapi({ example: "2026-11-25" }),
    sessions: z.array(z.string()).openapi({ description: "The venue's sessions in the window that had opened" }),
    count: z.number().int(),
    provider_history: z
      .array(
        z.object({
          interval: z.enum(["1m", "5m", "15m", "1h"]),
          days: z.number().int().openapi({ example: 30 }),
          from: z.string().openapi({ example: "2026-10-29", description: "The first session it still serves" }),
        }),
      )
      .openapi({
        description:
          "What the delayed provider keeps: minutes (resampled for the coarser intervals) and the interval's own bars, which reach further back. Sessions fetched once are stored, so the service keeps more",
      }),
    beyond_history: z.array(z.string()).openapi({
      description:
        "Sessions older than the provider's history that were never stored: only candles the realtime stream saved show",
    }),
    provider_requests: z
      .number()
      .int()
      .openapi({ description: "Intraday chart requests this answer made of the delayed provider (0: read as stored)" }),
    warning: z.string().optional().openapi({ description: "Present when the provider failed for some sessions" }),
    conversion: ConversionSchema.optional().openapi({ description: "With convert=: the currencies and the rule" }),
    bars: z.array(BarSchema),
  })
  .openapi("IntradayAnswer");

export type IntradayBody = z.infer<typeof IntradayAnswerSchema>;

export const toIntradayBody = (a: IntradayHistoryAnswer): IntradayBody => ({
  listing: {
    ticker: a.listing.ticker,
    exchange: a.listing.exchange,
    currency: a.listing.currency,
    isin: a.listing.isin,
  },
  interval: a.interval,
  time_zone: a.venue.timeZone,
  from: a.window.from,
  to: a.window.to,
  sessions: a.sessions,
  count: a.bars.length,
  provider_history: a.reach,
  beyond_history: a.beyond,
  provider_requests: a.fetched,
  ...(a.warning ? { warning: a.warning } : {}),
  ...(a.fx ? { conversion: a.fx.conversion } : {}),
  bars: a.bars.map((b, i) => ({
    timestamp: b.start.getTime() / 1000,
    datetime: isoInstant(b.start),
    open: b.open,
    high: b.high,
    low: b.low,
    close: b.close,
    volume: b.volume,
    source: b.source,
    ...(a.fx ? { fx_rate: a.fx.rates[i]?.rate ?? null, fx_published: a.fx.rates[i]?.published ?? null } : {}),
  })),
});

/** The CSV form, with the delayed provider's own header for intraday downloads. */
export const intradayCsv = (a: IntradayHistoryAnswer) =>
  a.fx
    ? `Datetime,Open,High,Low,Close,Volume,FX Rate,FX Published\n${a.bars
        .map(
          (b, i) =>
            `${isoInstant(b.start)},${b.open},${b.high},${b.low},${b.close},${b.volume},${a.fx?.rates[i]?.rate ?? ""},${a.fx?.rates[i]?.published ?? ""}\n`,
        )
        .join("")}`
    : `Datetime,Open,High,Low,Close,Volume\n${a.bars
        .map((b) => `${isoInstant(b.start)},${b.open},${b.high},${b.low},${b.close},${b.volume}\n`)
        .join("")}`;
