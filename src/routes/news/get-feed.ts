import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getNewsFeed } from "../../services/news/feed";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { FeedTickersParam, LanguageParam, lang, NewsFeedSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/news/feed",
    "x-mcp-tool": "get_news_feed",
    "x-access": "any",
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

export function registerGetNewsFeed(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const q = c.req.valid("query");
    return c.json(
      await getNewsFeed({
        ctx: c.get("deps"),
        input: { limit: q.limit, language: lang(q.language), tickers: q.tickers },
      }),
      200,
    );
  });
}
