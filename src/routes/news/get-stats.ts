import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { getNewsStats } from "../../services/news/feed";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { NewsStatsSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/news/stats",
    "x-access": "any",
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

export function registerGetNewsStats(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => c.json(await getNewsStats({ ctx: c.get("deps") }), 200));
}
