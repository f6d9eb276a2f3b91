import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { BadRequestError } from "../../domain/errors";
import { getNews } from "../../services/news/get-news";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { BoolParam } from "../params";
import { LanguageParam, lang, NewsAnswerSchema, NewsTickerParams } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/news/{ticker}",
    "x-mcp-tool": "get_news",
    "x-access": "any",
    tags: ["News"],
    description:
      "A ticker's news from seven providers asked in parallel (Yahoo Finance RSS, Google News RSS, Finnhub, Marketaux, NewsAPI, Alpha Vantage, GDELT; the keyed ones are skipped without their key and listed in `not_configured`), de-duplicated by normalised URL and by title similarity, newest first, cut to `limit` (default 20, at most NEWS_MAX_LIMIT, 100; more is a 400). `language` (an ISO 639-1 code) keeps one language plus articles whose language is unknown (`all` means no filter). A failing provider only adds an entry to `errors`, and when none answers, a catalogue instrument's stored articles are served (`source: database`). Articles of catalogue instruments are stored; the providers are asked once per ticker for NEWS_MAX_LIMIT articles, kept 30 minutes (5 when a provider failed), and every limit and language is cut from that one fetch (`cached: true` when it came from the cache); `force_refresh=true` asks again (a full-access key's only). Any key.",
    summary: "A ticker's news from seven providers, de-duplicated, newest first (cached 30 minutes)",
    security: keyed,
    // Articles of catalogue instruments are stored.
    "x-writes": true,
    request: {
      params: NewsTickerParams,
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

export function registerGetNews(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
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
}
