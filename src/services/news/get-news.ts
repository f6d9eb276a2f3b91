import { findAssetById } from "../../db/repositories/catalogue";
import { storedArticles, storeNews } from "../../db/repositories/news";
import { addDays } from "../../domain/instants";
import type { NewsArticle } from "../../domain/news/article";
import { deduplicate, duplicateGroups } from "../../domain/news/dedup";
import { urlKey } from "../../domain/news/normalise";
import { companyName, marketLanguage } from "../../domain/news/query";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import type { NewsQuery } from "../../providers/news/client";
import { findListing } from "../shared/resolve-listing";
import { fanOut } from "./fan-out";

/** How long an answer with a failed provider is cached. */
const PARTIAL_TTL_S = 300;

/** A provider failed: kept 5 minutes, so that it is asked again soon; else the full 30. */
const newsTtl = (ctx: Context, partial: boolean) => {
  const full = cacheTtls(ctx.config).news;
  return partial ? Math.min(PARTIAL_TTL_S, full) : full;
};

/** How far back providers are asked. */
const LOOKBACK_DAYS = 7;

export interface NewsAnswer {
  ticker: string;
  isin: string | null;
  count: number;
  /** Providers that returned articles. */
  providers: string[];
  cached: boolean;
  articles: NewsArticle[];
  /** Providers that failed, with why. */
  errors: { provider: string; reason: string }[];
  /** Keyed providers not asked (no key set). */
  not_configured: string[];
  /** Where the articles come from: the providers now, or the database when none answered. */
  source: "providers" | "database";
}

/** The instrument behind a ticker, when it is a catalogue one: its preferred listing's ISIN, name and market. */
async function instrumentOf(ctx: Context, ticker: string) {
  const listing = await findListing({ ctx, input: { ticker } });
  if (!listing) return null;
  const asset = await findAssetById(ctx.db, listing.assetId);
  return asset ? { assetId: asset.id, isin: listing.isin, name: asset.name, exchange: listing.exchange } : null;
}

const dayBefore = (day: string, days: number) => addDays(day, -days);

export interface Refreshed {
  ticker: string;
  isin: string | null;
  fan: Awaited<ReturnType<typeof fanOut>>;
  /** De-duplicated, newest first. */
  articles: NewsArticle[];
  stored: number;
}

/**
 * Asks the providers for a ticker's news (each for `2 x limit`), de-duplicates what came back, and
 * stores the articles of a catalogue instrument (linked to it). The one path of GET and refresh.
 */
export async function refreshNews(ctx: Context, ticker: string, limit: number): Promise<Refreshed> {
  const instrument = await instrumentOf(ctx, ticker);
  const today = ctx.clock.today();
  const query: NewsQuery = {
    ticker,
    company: instrument ? companyName(instrument.name) : ticker,
    language: marketLanguage(instrument?.exchange),
    limit: limit * 2,
    from: dayBefore(today, LOOKBACK_DAYS),
    to: today,
  };
  const fan = await fanOut(ctx, query);
  const { kept } = deduplicate(fan.articles, ctx.config.NEWS_DEDUP_SIMILARITY);
  let stored = 0;
  if (instrument) {
    try {
      stored = await storeNews(ctx.transaction, instrument.assetId, ctx.clock.now(), STORED_COMPARED, (s) =>
        notStoredYet(s, kept, ctx.config.NEWS_DEDUP_SIMILARITY),
      );
    } catch (err) {
      // The answer is the providers' news whether or not it could be kept.
      console.warn("news not stored", ticker, err instanceof Error ? err.message : String(err));
    }
  }
  return { ticker, isin: instrument?.isin ?? null, fan, articles: kept, stored };
}

/** How many of an instrument's newest stored articles a fetch is compared with. */
const STORED_COMPARED = 500;

/**
 * The fetched articles that are not a story already stored for the instrument: a later fetch may
 * keep another provider's copy of a story (another URL), which must not become a second row. An
 * article of the same URL stays (the upsert only refreshes it).
 */
function notStoredYet(stored: NewsArticle[], fetched: NewsArticle[], threshold: number): NewsArticle[] {
  if (stored.length === 0) return fetched;
  const storedUrls = new Set(stored.map((a) => urlKey(a.url)));
  const { groups } = duplicateGroups([...stored, ...fetched], threshold);
  const known = new Set<number>();
  for (const g of groups) if (g.some((i) => i < stored.length)) for (const i of g) known.add(i - stored.length);
  return fetched.filter((a, i) => !known.has(i) || storedUrls.has(urlKey(a.url)));
}

const byLanguage = (language: string | undefined) => (a: NewsArticle) =>
  !language || a.language === null || a.language === language;

/** A ticker's answer as cached: the providers' articles at NEWS_MAX_LIMIT, every language. */
type CachedNews = Omit<NewsAnswer, "count" | "cached">;

/** One request's answer out of the ticker's articles: its language (unknown languages kept), newest first, cut to its limit. */
function cut(news: CachedNews, input: { limit: number; language?: string }, cached: boolean): NewsAnswer {
  const articles = news.articles.filter(byLanguage(input.language)).slice(0, input.limit);
  return { ...news, count: articles.length, cached, articles };
}

/**
 * GET /news/{ticker} (spec News rules 1-5): the ticker's articles as the providers gave them at
 * NEWS_MAX_LIMIT (cached 30 minutes, one entry per ticker) unless `forceRefresh`, de-duplicated
 * and stored; each answer is cut from them for its language and limit, so that another limit or
 * language never asks the providers again (a stated reading of rule 1: every limit and language
 * is still answered from the cache, out of one entry). When no provider answers, the stored
 * articles of the instrument, not cached.
 */
export async function getNews({
  ctx,
  input,
}: {
  ctx: Context;
  input: { ticker: string; limit: number; language?: string; forceRefresh: boolean };
}): Promise<NewsAnswer> {
  const key = cacheKeys.news(input.ticker, "all");
  if (input.forceRefresh) ctx.journal.keeping.notKept();
  else {
    const hit = await ctx.cache.get<CachedNews>(key);
    if (hit) {
      ctx.journal.keeping.kept(newsTtl(ctx, hit.errors.length > 0));
      return cut(hit, input, true);
    }
  }
  const r = await refreshNews(ctx, input.ticker, ctx.config.NEWS_MAX_LIMIT);
  const news: CachedNews = {
    ticker: input.ticker,
    isin: r.isin,
    providers: r.fan.answered,
    articles: r.articles.slice(0, ctx.config.NEWS_MAX_LIMIT),
    errors: r.fan.failures,
    not_configured: r.fan.notConfigured,
    source: "providers",
  };
  if (r.fan.answered.length === 0 && r.isin) {
    const instrument = await instrumentOf(ctx, input.ticker);
    const stored = instrument
      ? await storedArticles(ctx.db, { assetIds: [instrument.assetId], language: input.language, limit: input.limit })
      : [];
    ctx.journal.keeping.notKept();
    return cut({ ...news, articles: stored, source: "database" }, input, false);
  }
  const ttl = newsTtl(ctx, r.fan.failures.length > 0);
  if (r.fan.answered.length > 0 && ttl > 0) {
    await ctx.cache.set(key, news, ttl);
    ctx.journal.keeping.kept(ttl);
  } else ctx.journal.keeping.notKept();
  return cut(news, input, false);
}
