import { z } from "@hono/zod-openapi";
import { ISO_639_1 } from "../../domain/news/language";
import { csvList, TickerParam } from "../params";

export const NewsArticleSchema = z
  .object({
    title: z.string(),
    summary: z.string(),
    url: z.string(),
    source: z.string().openapi({ example: "Reuters" }),
    provider: z.string().openapi({ example: "finnhub" }),
    author: z.string().nullable(),
    language: z.string().nullable().openapi({ example: "en", description: "ISO 639-1; null when unknown" }),
    image_url: z.string().nullable(),
    published_at: z.string().openapi({ example: "2026-11-25T14:30:00.000Z" }),
    related_tickers: z.array(z.string()),
  })
  .openapi("NewsArticle");

const ProviderFailure = z.object({ provider: z.string(), reason: z.string() });

export const NewsAnswerSchema = z
  .object({
    ticker: z.string(),
    isin: z.string().nullable().openapi({ description: "Of the catalogue listing chosen; null for another ticker" }),
    count: z.number().int(),
    providers: z.array(z.string()).openapi({ description: "Providers that returned articles" }),
    cached: z.boolean(),
    articles: z.array(NewsArticleSchema),
    errors: z.array(ProviderFailure).openapi({ description: "Providers that failed, and why" }),
    not_configured: z.array(z.string()).openapi({ description: "Keyed providers without their key: not asked" }),
    source: z
      .enum(["providers", "database"])
      .openapi({ description: "database when no provider answered: the stored articles" }),
  })
  .openapi("News");
export type NewsBody = z.infer<typeof NewsAnswerSchema>;

export const NewsFeedSchema = z
  .object({
    count: z.number().int(),
    from_date: z.string().nullable(),
    to_date: z.string().nullable(),
    articles: z.array(NewsArticleSchema),
  })
  .openapi("NewsFeed");
export type NewsFeedBody = z.infer<typeof NewsFeedSchema>;

export const NewsStatsSchema = z
  .object({
    total_articles: z.number().int(),
    by_provider: z.record(z.string(), z.number().int()),
    by_language: z.record(z.string(), z.number().int()),
    last_fetched_at: z.string().nullable(),
    top_assets: z.record(z.string(), z.object({ name: z.string(), articles: z.number().int() })),
  })
  .openapi("NewsStats");
export type NewsStatsBody = z.infer<typeof NewsStatsSchema>;

export const QueuedSchema = z.object({ status: z.literal("queued"), ticker: z.string() }).openapi("NewsRefreshQueued");

export const LanguageParam = z
  .string()
  .max(3)
  .refine((l) => l === "all" || ISO_639_1.has(l), "a language is an ISO 639-1 code (en, fr ...) or all")
  .optional()
  .openapi({ example: "en", description: "Keep this language and articles of unknown language; all = no filter" });
export const NewsTickerParams = z.object({ ticker: TickerParam.openapi({ example: "AAPL" }) });
export const lang = (l: string | undefined) => (l === undefined || l === "all" ? undefined : l);

export const FeedTickersParam = csvList(
  z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,10}(,[A-Za-z0-9.-]{1,10}){0,49}$/, "up to 50 tickers separated by commas")
    .transform((s) => s.toUpperCase().split(","))
    .optional(),
).openapi({ type: "string", example: "MC.PA,AAPL" });
