import { z } from "@hono/zod-openapi";
import { getNewsFeed } from "../../../services/news/feed";
import { FeedTickersParam, LanguageParam, lang } from "../../news/schema";
import { articleRow } from "../article-row";
import type { WidgetRoutes } from "../define";

export function registerNewsFeedWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/news/feed",
    kind: "table",
    description:
      "Feeds the svc_news_feed table widget: the newest stored articles across instruments from /news/feed, 20 by default. Any key.",
    summary: "svc_news_feed: the newest stored articles across instruments (20 by default)",
    params: {},
    query: {
      limit: z.coerce.number().int().min(1).max(1000).default(20),
      language: LanguageParam,
      tickers: FeedTickersParam,
    },
    handle: async (c, q) => {
      const r = await getNewsFeed({
        ctx: c.get("deps"),
        input: { limit: q.limit, language: lang(q.language), tickers: q.tickers },
      });
      return r.articles.map(articleRow);
    },
  });
}
