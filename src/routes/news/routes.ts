import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { BadRequestError } from "../../domain/errors";
import { getNewsFeed, getNewsStats } from "../../services/news/feed";
import { getNews } from "../../services/news/get-news";
import { refreshStoredNews } from "../../services/news/refresh-stored";
import { inBackground } from "../background";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { BoolParam, csvList, TickerParam } from "../params";
import { NewsAnswerSchema, NewsFeedSchema, NewsStatsSchema, QueuedSchema } from "./schema";

export const LanguageParam = z
  .string()
  .regex(/^([a-z]{2}|all)$/, "a language is a two-letter code (en, fr ...) or all")
  .optional()
  .openapi({ example: "en", description: "Keep this language and articles of unknown language; all = no filter" });
const params = z.object({ ticker: TickerParam.openapi({ example: "AAPL" }) });
export const lang = (l: string | undefined) => (l === undefined || l === "all" ? undefined : l);

const getRoute = createRoute(
  withErrors({
    method: "get",
    path: "/news/{ticker}",
    tags: ["News"],
    description:
      "A ticker's news from seven providers asked in parallel (Yahoo Finance RSS, Google News RSS, Finnhub, Marketaux, NewsAPI, Alpha Vantage, GDELT; the keyed ones are skipped without their key and listed in `not_configured`), de-duplicated by normalised URL and by title similarity, newest first, cut to `limit` (default 20, at most NEWS_MAX_LIMIT, 100; more is a 400). `language` keeps one language plus articles whose language is unknown (`all` means no filter). A failing provider only adds an entry to `errors`, and when none answers, a catalogue instrument's stored articles are served (`source: database`). Articles of catalogue instruments are stored; answers are cached 30 minutes per limit and language (5 minutes when a provider failed) and `force_refresh=true` bypasses the cache. Any key.",
    summary: "A ticker's news from seven providers, de-duplicated, newest first (cached 30 minutes)",
    security: keyed,
    // Articles of catalogue instruments are stored.
    "x-writes": true,
    request: {
      params,
      query: z.object({
        limit: z.coerce
          .number()
          .int()
          .min(1)
          .max(1000)
          .default(20)
          .openapi({ description: "At most NEWS_MAX_LIMIT (100)" }),
        language: LanguageParam,
        force_refresh: BoolParam,
      }),
    },
    responses: {
      200: {
        description: "The articles, and which providers answered",
        content: { "application/json": { schema: NewsAnswerSchema } },
      },
    },
  }),
);

export const FeedTickersParam = csvList(
  z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,10}(,[A-Za-z0-9.-]{1,10}){0,49}$/, "up to 50 tickers separated by commas")
    .transform((s) => s.toUpperCase().split(","))
    .optional(),
).openapi({ type: "string", example: "MC.PA,AAPL" });

const feedRoute = createRoute(
  withErrors({
    method: "get",
    path: "/news/feed",
    tags: ["News"],
    description:
      "The newest articles stored in the database across instruments, newest first; nothing is fetched from the providers. `limit` (default 50, at most 1000), `language` (a two-letter code; articles of unknown language are kept; `all` means no filter) and `tickers` (up to 50, comma-separated; keeps the articles tied to at least one of them) shape the list, and `from_date`/`to_date` give the span of the articles returned (null when there are none). Any key.",
    summary: "The newest stored articles across instruments (the database only)",
    security: keyed,
    request: {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(1000).default(50),
        language: LanguageParam,
        tickers: FeedTickersParam,
      }),
    },
    responses: {
      200: {
        description: "The stored articles, newest first",
        content: { "application/json": { schema: NewsFeedSchema } },
      },
    },
  }),
);

const statsRoute = createRoute(
  withErrors({
    method: "get",
    path: "/news/stats",
    tags: ["News"],
    description:
      "Statistics of the stored news articles: the total, counts by provider and by language (`unknown` when none was detected), when the newest fetch happened, and the instruments with the most articles, keyed by ISIN. Read from the database; any key.",
    summary: "Stored articles by provider and language, the newest fetch, the instruments with most news",
    security: keyed,
    responses: {
      200: { description: "Statistics of news_articles", content: { "application/json": { schema: NewsStatsSchema } } },
    },
  }),
);

const refreshRoute = createRoute(
  withErrors({
    method: "post",
    path: "/news/{ticker}/refresh",
    tags: ["News"],
    description:
      "Refetches the ticker's news from the providers after answering (at once, `{status: \"queued\", ticker}`), stores the articles of a catalogue instrument, and drops the ticker's cached news answers so the next GET /news/{ticker} sees them. Needs a full-access key.",
    summary: "Refetches a ticker's news in the background (full-access); answers at once",
    security: keyed,
    "x-background": true,
    request: { params },
    responses: {
      200: { description: "Queued", content: { "application/json": { schema: QueuedSchema } } },
    },
  }),
);

export function registerNewsRoutes(api: OpenAPIHono<AppEnv>) {
  // /news/feed and /news/stats before /news/{ticker}: "feed" is a valid ticker too.
  api.openapi(feedRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(
      await getNewsFeed({
        ctx: c.get("deps"),
        input: { limit: q.limit, language: lang(q.language), tickers: q.tickers },
      }),
      200,
    );
  });
  api.openapi(statsRoute, async (c) => c.json(await getNewsStats({ ctx: c.get("deps") }), 200));
  api.openapi(getRoute, async (c) => {
    const deps = c.get("deps");
    const q = c.req.valid("query");
    if (q.limit > deps.config.NEWS_MAX_LIMIT)
      throw new BadRequestError(`limit is at most ${deps.config.NEWS_MAX_LIMIT}`, [
        { path: "limit", message: `at most NEWS_MAX_LIMIT (${deps.config.NEWS_MAX_LIMIT})` },
      ]);
    const answer = await getNews({
      ctx: deps,
      input: {
        ticker: c.req.valid("param").ticker,
        limit: q.limit,
        language: lang(q.language),
        forceRefresh: q.force_refresh,
      },
    });
    return c.json(answer, 200);
  });
  api.openapi(refreshRoute, async (c) => {
    const ticker = c.req.valid("param").ticker;
    inBackground(c, (deps) => refreshStoredNews(deps, ticker));
    return c.json({ status: "queued" as const, ticker }, 200);
  });
  return api;
}
