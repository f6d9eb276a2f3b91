import { z } from "@hono/zod-openapi";
import { getNews } from "../../../services/news/get-news";
import { LanguageParam, lang } from "../../news/schema";
import { BoolParam, TickerParam } from "../../params";
import { articleRow } from "../article-row";
import type { WidgetRoutes } from "../define";

export function registerNewsWidget(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/news/{ticker}",
    queryPath: "/workspace/news",
    kind: "table",
    description:
      "Feeds the svc_news table widget: the articles of /news/{ticker} as rows (time, title, source, provider, language, URL, tickers), newest first. Any key; unlike /news/{ticker}, a `limit` above 100 is lowered to 100 rather than refused.",
    summary: "svc_news: a ticker's news, newest first",
    params: { ticker: TickerParam },
    query: {
      limit: z.coerce.number().int().min(1).max(1000).default(20),
      language: LanguageParam,
      force_refresh: BoolParam,
    },
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const deps = c.get("deps");
      const limit = Math.min(q.limit, deps.config.NEWS_MAX_LIMIT);
      const r = await getNews({
        ctx: deps,
        input: { ticker: q.ticker, limit, language: lang(q.language), forceRefresh: q.force_refresh },
      });
      return r.articles.map(articleRow);
    },
  });
}
