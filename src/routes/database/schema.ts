import { z } from "@hono/zod-openapi";
import type { StoredSeries as StoredSeriesRow } from "../../services/database/list-stored";

export const StoredSeriesSchema = z
  .object({
    ticker: z.string(),
    listing_id: z.number().int(),
    isin: z.string(),
    exchange: z.string().nullable(),
    currency: z.string(),
    first_date: z.string(),
    last_date: z.string(),
    bars: z.number().int(),
    last_source: z.string().nullable().openapi({ description: "Provider of the newest stored bar" }),
  })
  .openapi("StoredSeries");
export type StoredSeries = z.infer<typeof StoredSeriesSchema>;

export const DatabaseStatsSchema = z
  .object({
    prices: z.object({
      daily_bars: z.number().int(),
      listings: z.number().int(),
      tickers: z.number().int(),
      first_date: z.string().nullable(),
      last_date: z.string().nullable(),
      intraday_candles: z.number().int(),
    }),
    catalogue: z.object({ assets: z.number().int(), listings: z.number().int() }),
    api_requests_24h: z.number().int(),
  })
  .openapi("DatabaseStats");
export type DatabaseStats = z.infer<typeof DatabaseStatsSchema>;

export const StoredTickersSchema = z
  .object({ count: z.number().int(), tickers: z.array(StoredSeriesSchema) })
  .openapi("StoredTickers");
export type StoredTickers = z.infer<typeof StoredTickersSchema>;

export const StoredTickerSchema = z
  .object({
    ticker: z.string(),
    listings: z.array(StoredSeriesSchema),
    api_requests: z
      .number()
      .int()
      .openapi({ description: "Requests naming the ticker, within the usage-log retention" }),
    api_requests_24h: z.number().int(),
  })
  .openapi("StoredTicker");
export type StoredTicker = z.infer<typeof StoredTickerSchema>;

export const CleanupRequestSchema = z
  .object({
    days_to_keep: z
      .number()
      .int()
      .min(30)
      .max(36_500)
      .default(730)
      .openapi({ description: "Prices older than this many days are deleted; 30 to 36,500" }),
    dry_run: z.boolean().default(false).openapi({ description: "Count what a real run would delete, delete nothing" }),
  })
  .strict()
  .openapi("CleanupRequest", { example: { days_to_keep: 730, dry_run: true } });

export const CleanupAnswerSchema = z
  .object({
    dry_run: z.boolean(),
    days_to_keep: z.number().int(),
    cutoffs: z.object({ prices_before: z.string(), logs_before: z.string(), usage_logs_before: z.string() }),
    deleted: z
      .object({
        prices_daily: z.number().int(),
        prices_intraday: z.number().int(),
        provider_checks: z.number().int(),
        validation_results: z.number().int(),
        alerts: z.number().int(),
        usage_logs: z.number().int(),
      })
      .openapi({ description: "Rows deleted, or with dry_run the rows a real run would delete" }),
  })
  .openapi("CleanupAnswer");
export type CleanupAnswer = z.infer<typeof CleanupAnswerSchema>;

export function toStoredSeries(s: StoredSeriesRow): StoredSeries {
  return {
    ticker: s.ticker,
    listing_id: s.listingId,
    isin: s.isin,
    exchange: s.exchange,
    currency: s.currency,
    first_date: s.firstDate,
    last_date: s.lastDate,
    bars: s.bars,
    last_source: s.lastSource,
  };
}
