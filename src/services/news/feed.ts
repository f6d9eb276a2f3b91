import { assetIdsOfTickers, newsStats, storedArticles } from "../../db/repositories/news";
import type { Context } from "../../platform/context";

/** GET /news/feed: the newest stored articles (never the providers), of some tickers' instruments and a language. */
export async function getNewsFeed({
  ctx,
  input,
}: {
  ctx: Context;
  input: { limit: number; language?: string; tickers?: string[] };
}) {
  const assetIds = input.tickers ? await assetIdsOfTickers(ctx.db, input.tickers) : undefined;
  const articles = await storedArticles(ctx.db, { assetIds, language: input.language, limit: input.limit });
  return {
    count: articles.length,
    from_date: articles.at(-1)?.published_at ?? null,
    to_date: articles[0]?.published_at ?? null,
    articles,
  };
}

/** GET /news/stats. */
export async function getNewsStats({ ctx }: { ctx: Context }) {
  const s = await newsStats(ctx.db);
  return {
    total_articles: s.totals?.total ?? 0,
    by_provider: Object.fromEntries(s.byProvider.map((r) => [r.key, r.n])),
    by_language: Object.fromEntries(s.byLanguage.map((r) => [r.key ?? "unknown", r.n])),
    last_fetched_at: s.totals?.last ? new Date(s.totals.last).toISOString() : null,
    top_assets: Object.fromEntries(s.topAssets.map((r) => [r.isin, { name: r.name, articles: r.n }])),
  };
}
