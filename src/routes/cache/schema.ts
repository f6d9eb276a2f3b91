import { z } from "@hono/zod-openapi";

export const CacheStatsSchema = z
  .object({
    backend: z.enum(["upstash", "memory"]),
    version: z
      .string()
      .nullable()
      .openapi({ description: "Redis version behind Upstash; null for the in-isolate cache" }),
    keys: z.number().int(),
    memory_used_bytes: z.number().int().nullable(),
    ttl_seconds: z.record(z.string(), z.number().int()).openapi({ description: "Lifetime of each cache category" }),
    eod_entries: z.number().int(),
    cached_tickers: z.array(z.string()).openapi({ description: "Tickers with cached EOD answers" }),
  })
  .openapi("CacheStats");
export type CacheStats = z.infer<typeof CacheStatsSchema>;

export const CacheClearSchema = z
  .object({
    status: z.literal("cleared"),
    scope: z.string().openapi({ example: "eod:AAPL:*" }),
    deleted: z.number().int(),
    note: z.string().optional(),
  })
  .openapi("CacheClear");
export type CacheClear = z.infer<typeof CacheClearSchema>;
