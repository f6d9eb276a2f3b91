import { and, count, desc, eq, inArray, isNull, max, or, sql } from "drizzle-orm";
import type { NewsArticle } from "../../domain/news/article";
import { urlKey } from "../../domain/news/normalise";
import type { Db, Queryable, Transact } from "../client";
import { assets, listings, newsArticleAssets, newsArticles } from "../schema";

type Row = typeof newsArticles.$inferSelect;
/** The database or a transaction on it. */
type Executor = Queryable;

/** Lock space of the news writes of one instrument (pg_advisory_xact_lock's first key). */
const NEWS_LOCK = 0x6e657773;

export function articleOf(r: Row): NewsArticle {
  return {
    title: r.title,
    summary: r.summary,
    url: r.url,
    source: r.source,
    provider: r.provider,
    author: r.author,
    language: r.language,
    image_url: r.imageUrl,
    published_at: r.publishedAt.toISOString(),
    related_tickers: r.relatedTickers,
  };
}

/**
 * Stores what `choose` keeps of a fetch, given the instrument's newest stored articles, in one
 * transaction holding the instrument's news lock: two fetches at once (GET and a refresh) decide
 * one after the other, so a story is never stored twice from two providers' URLs.
 */
export async function storeNews(
  transaction: Transact,
  assetId: number,
  fetchedAt: Date,
  compareWith: number,
  choose: (stored: NewsArticle[]) => NewsArticle[],
): Promise<number> {
  return transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${NEWS_LOCK}, ${assetId})`);
    const stored = await storedArticles(tx, { assetIds: [assetId], limit: compareWith });
    return saveArticles(tx, assetId, choose(stored), fetchedAt);
  });
}

/**
 * Stores articles of an instrument, one statement each way: an article already stored (same
 * normalised URL, whichever ticker found it) keeps its row and gains the link and the related
 * tickers, never a second row; a rerun changes nothing. `articles` must be unique by URL key; rows
 * go in URL-key order, so two writers lock shared rows in the same order.
 */
export async function saveArticles(db: Executor, assetId: number, articles: readonly NewsArticle[], fetchedAt: Date) {
  if (articles.length === 0) return 0;
  const sorted = [...articles].sort((a, b) => (urlKey(a.url) < urlKey(b.url) ? -1 : 1));
  const rows = await db
    .insert(newsArticles)
    .values(
      sorted.map((a) => ({
        urlKey: urlKey(a.url),
        url: a.url,
        title: a.title,
        summary: a.summary,
        source: a.source,
        provider: a.provider,
        author: a.author,
        language: a.language,
        imageUrl: a.image_url,
        publishedAt: new Date(a.published_at),
        relatedTickers: a.related_tickers,
        fetchedAt,
      })),
    )
    .onConflictDoUpdate({
      target: newsArticles.urlKey,
      set: {
        relatedTickers: sql`array(select distinct t from unnest(${newsArticles.relatedTickers} || excluded.related_tickers) as t order by t)`,
        fetchedAt: sql`greatest(${newsArticles.fetchedAt}, excluded.fetched_at)`,
      },
    })
    .returning({ id: newsArticles.id });
  await db
    .insert(newsArticleAssets)
    .values(rows.map((r) => ({ articleId: r.id, assetId })))
    .onConflictDoNothing();
  return rows.length;
}

export interface StoredNewsFilter {
  assetIds?: number[];
  /** Keep this language and articles of unknown language. */
  language?: string;
  limit: number;
}

/** Stored articles, newest first, optionally of some instruments and a language. */
export async function storedArticles(db: Executor, f: StoredNewsFilter): Promise<NewsArticle[]> {
  const conditions = [];
  if (f.language) conditions.push(or(eq(newsArticles.language, f.language), isNull(newsArticles.language)));
  if (f.assetIds) {
    if (f.assetIds.length === 0) return [];
    conditions.push(
      inArray(
        newsArticles.id,
        db
          .select({ id: newsArticleAssets.articleId })
          .from(newsArticleAssets)
          .where(inArray(newsArticleAssets.assetId, f.assetIds)),
      ),
    );
  }
  const rows = await db
    .select()
    .from(newsArticles)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(newsArticles.publishedAt), desc(newsArticles.id))
    .limit(f.limit);
  return rows.map(articleOf);
}

/** Instruments of catalogue tickers (any listing), for the feed's filter. */
export async function assetIdsOfTickers(db: Db, tickers: readonly string[]): Promise<number[]> {
  if (tickers.length === 0) return [];
  const rows = await db
    .selectDistinct({ assetId: listings.assetId })
    .from(listings)
    .where(
      inArray(
        listings.ticker,
        tickers.map((t) => t.toUpperCase()),
      ),
    );
  return rows.map((r) => r.assetId);
}

/** GET /news/stats: totals, by provider and language, the newest fetch, the instruments with most articles. */
export async function newsStats(db: Db, top = 10) {
  const [totals] = await db.select({ total: count(), last: max(newsArticles.fetchedAt) }).from(newsArticles);
  const byProvider = await db
    .select({ key: newsArticles.provider, n: count() })
    .from(newsArticles)
    .groupBy(newsArticles.provider);
  const byLanguage = await db
    .select({ key: newsArticles.language, n: count() })
    .from(newsArticles)
    .groupBy(newsArticles.language);
  const topAssets = await db
    .select({ isin: assets.isin, name: assets.name, n: count() })
    .from(newsArticleAssets)
    .innerJoin(assets, eq(assets.id, newsArticleAssets.assetId))
    .groupBy(assets.isin, assets.name)
    .orderBy(desc(count()), assets.isin)
    .limit(top);
  return { totals, byProvider, byLanguage, topAssets };
}
