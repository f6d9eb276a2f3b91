import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { assets, newsArticleAssets, newsArticles } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import { titleSimilarity } from "../../src/domain/news/dedup";
import { titleKey, urlKey } from "../../src/domain/news/normalise";
import type { NewsBody, NewsFeedBody, NewsStatsBody } from "../../src/routes/news/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { NEWS_SIM_AS_OF } from "../helpers/global-setup";
import { READ_ONLY_KEY } from "../helpers/keys";
import { fault, forgetCached, simRequests } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const newsSim = inject("newsSimUrl");
const AT = NEWS_SIM_AS_OF;
const ALL = ["yahoo_finance_rss", "google_news_rss", "finnhub", "marketaux", "newsapi", "alpha_vantage", "gdelt"];

async function forgetNews(isin: string) {
  const deps = buildDeps(env);
  const { db, cache } = deps;
  try {
    const [asset] = await db.select().from(assets).where(eq(assets.isin, isin));
    if (asset)
      await db.execute(
        sql`delete from ${newsArticles} where id in (select article_id from ${newsArticleAssets} where asset_id = ${asset.id})`,
      );
    await cache.deletePattern("news:*");
  } finally {
    await deps.close();
  }
}

async function storedOf(isin: string): Promise<number> {
  const deps = buildDeps(env);
  const { db } = deps;
  try {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(newsArticleAssets)
      .innerJoin(assets, eq(assets.id, newsArticleAssets.assetId))
      .where(eq(assets.isin, isin));
    return row?.n ?? 0;
  } finally {
    await deps.close();
  }
}

const news = (path: string, opts: Parameters<typeof call>[1] = {}) => call<NewsBody>(path, { at: AT, ...opts });

/** The answer's articles are each other's duplicates by neither URL nor title, newest first, in UTC, with codes. */
function expectClean(articles: NewsBody["articles"], threshold = 0.85) {
  const urls = articles.map((a) => urlKey(a.url));
  expect(new Set(urls).size).toBe(urls.length);
  const titles = articles.map((a) => titleKey(a.title, a.source));
  for (let i = 0; i < titles.length; i++)
    for (let j = i + 1; j < titles.length; j++)
      expect(titleSimilarity(titles[i] as string, titles[j] as string), `${titles[i]} / ${titles[j]}`).toBeLessThan(
        threshold,
      );
  const times = articles.map((a) => a.published_at);
  expect(times).toEqual([...times].sort().reverse());
  for (const a of articles) {
    expect(a.published_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    if (a.language !== null) expect(a.language).toMatch(/^[a-z]{2}$/);
    expect(a.summary).not.toMatch(/<[a-z/][^>]*>|&[a-z]+;/i);
  }
}

describe("GET /news/{ticker}", () => {
  beforeAll(async () => {
    await forgetNews("US0378331005");
    await forgetNews("FR0000121014");
  });

  it("asks the seven providers, answers the limit newest first without duplicates, stores every article once", async () => {
    const res = await news("/news/AAPL?limit=20");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ticker: "AAPL",
      isin: "US0378331005",
      count: 20,
      cached: false,
      errors: [],
      not_configured: [],
    });
    expect([...res.body.providers].sort()).toEqual([...ALL].sort());
    expect(res.body.articles).toHaveLength(20);
    expectClean(res.body.articles);
    // 24 English stories told 2 to 5 times each: every one stored once, linked to Apple.
    expect(await storedOf("US0378331005")).toBe(24);
    const again = await news("/news/AAPL?limit=20");
    expect(again.body.cached).toBe(true);
    expect({ ...again.body, cached: false }).toEqual(res.body);
    await news("/news/AAPL?limit=20&force_refresh=true");
    expect(await storedOf("US0378331005")).toBe(24);
    // Without the aggregators, other providers' copies (other URLs) are kept: still one row per story.
    await fault(newsSim, "google:AAPL", "500", 1);
    await fault(newsSim, "yahoo:AAPL", "500", 1);
    const partial = await news("/news/AAPL?limit=20&force_refresh=true");
    expect(partial.body.errors.map((e) => e.provider)).toEqual(["yahoo_finance_rss", "google_news_rss"]);
    expect(await storedOf("US0378331005")).toBe(24);
  });

  it("asks the providers once per ticker whatever the limit or language: each answer is cut from the one cached fetch", async () => {
    await forgetCached("news:*");
    const asked = async () => (await simRequests(newsSim))["finnhub NVDA"] ?? 0;
    const before = await asked();
    const first = await news("/news/NVDA?limit=3");
    expect(first.body).toMatchObject({ cached: false, count: 3 });
    expect(await asked()).toBe(before + 1);
    const wider = await news("/news/NVDA?limit=40");
    const english = await news("/news/NVDA?limit=7&language=en");
    expect([wider.body.cached, english.body.cached]).toEqual([true, true]);
    // The same articles, in the same order, cut at each limit.
    expect(wider.body.articles.slice(0, 3)).toEqual(first.body.articles);
    expect(english.body.articles).toEqual(
      wider.body.articles.filter((a) => a.language === null || a.language === "en").slice(0, 7),
    );
    expect(await asked()).toBe(before + 1);
    // A language that is not an ISO 639-1 code is refused, not a cache variant of its own.
    const bogus = await call<ErrorBody>("/news/NVDA?language=xx", { at: AT });
    expect(bogus.status).toBe(400);
    expect(bogus.body.message).toContain("a language is an ISO 639-1 code (en, fr ...) or all");
  });

  it("keeps a language and the articles of unknown language; a Paris share has French news", async () => {
    const res = await news("/news/MC.PA?limit=50&language=fr");
    expect(res.status).toBe(200);
    expect(res.body.isin).toBe("FR0000121014");
    expect(res.body.count).toBeGreaterThanOrEqual(10);
    for (const a of res.body.articles) expect([null, "fr"]).toContain(a.language);
    expect(res.body.articles.map((a) => a.title)).toContain(
      "LVMH Moët Hennessy Louis Vuitton relève ses objectifs annuels",
    );
    expectClean(res.body.articles);
    const all = await news("/news/MC.PA?limit=100&language=all");
    expect(new Set(all.body.articles.map((a) => a.language))).toEqual(new Set(["en", "fr"]));
  });

  it("a failing provider and a slow one contribute nothing, are named, and the answer still comes in time", async () => {
    await forgetCached("news:*");
    await fault(newsSim, "finnhub:NVDA", "500", 10);
    await fault(newsSim, "gdelt:NVDA", "timeout", 10);
    await fault(newsSim, "alphavantage:NVDA", "error200", 10);
    const res = await news("/news/NVDA?limit=20");
    // PROVIDER_TIMEOUT_MS is 1.5 s in the tests: the slow one is given up then (its reason says so).
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([
      { provider: "finnhub", reason: "finnhub: HTTP 500" },
      { provider: "alpha_vantage", reason: "alpha_vantage: rate limit reached (said with HTTP 200)" },
      { provider: "gdelt", reason: "gdelt: no complete answer within 1500 ms" },
    ]);
    expect(res.body.providers).not.toContain("finnhub");
    expect(res.body.count).toBe(20);
    expect(res.body.articles.map((a) => a.provider)).not.toContain("gdelt");
  });

  it("a provider answering 404 (a moved endpoint, a wrong address) is a failure, not an empty answer", async () => {
    await forgetCached("news:*");
    const res = await news("/news/MSFT?limit=5", { env: { NEWS_GDELT_BASE_URL: `${newsSim}/moved` } });
    expect(res.body.errors).toEqual([{ provider: "gdelt", reason: "gdelt: HTTP 404" }]);
  });

  it("a keyed provider without its key is not asked and is named as not configured, never as an error", async () => {
    await forgetCached("news:*");
    const before = (await simRequests(newsSim))["finnhub AMZN"] ?? 0;
    const res = await news("/news/AMZN?limit=5", { env: { FINNHUB_API_KEY: "" } });
    expect(res.body.not_configured).toEqual(["finnhub"]);
    expect(res.body.errors).toEqual([]);
    expect((await simRequests(newsSim))["finnhub AMZN"] ?? 0).toBe(before);
  });

  it("ignores force_refresh from a read-only key, and says so; a full-access key's asks the providers again", async () => {
    await forgetCached("news:*");
    const asked = async () => (await simRequests(newsSim))["finnhub AMZN"] ?? 0;
    const first = await news("/news/AMZN?limit=5", { key: READ_ONLY_KEY });
    expect(first.headers.get("x-refresh-ignored")).toBeNull();
    const before = await asked();
    const readOnly = await news("/news/AMZN?limit=5&force_refresh=true", { key: READ_ONLY_KEY });
    expect(readOnly.status).toBe(200);
    expect(readOnly.body.cached).toBe(true);
    expect(readOnly.headers.get("x-refresh-ignored")).toBe("force_refresh (a read-only key cannot force a refresh)");
    expect(await asked()).toBe(before);
    const full = await news("/news/AMZN?limit=5&force_refresh=true");
    expect(full.body.cached).toBe(false);
    expect(full.headers.get("x-refresh-ignored")).toBeNull();
    expect(await asked()).toBe(before + 1);
  });

  it("a ticker outside the catalogue: answered, nothing stored; limit above NEWS_MAX_LIMIT is a 400", async () => {
    const res = await news("/news/ZZZZ?limit=5");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ticker: "ZZZZ", isin: null, count: 0, providers: [], errors: [] });
    const bad = await call<ErrorBody>("/news/AAPL?limit=101", { at: AT });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.map((d) => d.path)).toEqual(["limit"]);
  });
});

describe("GET /news/feed, POST /news/{ticker}/refresh, GET /news/stats", () => {
  beforeAll(() => forgetNews("DE0007236101"));

  it("refresh answers queued at once and stores in the background (full-access only)", async () => {
    expect((await call("/news/SIE.DE/refresh", { method: "POST", key: READ_ONLY_KEY })).status).toBe(403);
    const res = await call<{ status: string; ticker: string }>("/news/SIE.DE/refresh", {
      at: AT,
      method: "POST",
      settleBackground: true,
    });
    expect(res.body).toEqual({ status: "queued", ticker: "SIE.DE" });
    expect(await storedOf("DE0007236101")).toBeGreaterThanOrEqual(30);
  });

  it("the feed reads the database only: a ticker's articles in a language, newest first, with their span", async () => {
    const asked = JSON.stringify(await simRequests(newsSim));
    const res = await call<NewsFeedBody>("/news/feed?tickers=SIE.DE&language=de&limit=10", { at: AT });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(10);
    for (const a of res.body.articles) expect([null, "de"]).toContain(a.language);
    expect(res.body.to_date).toBe(res.body.articles[0]?.published_at);
    expect(res.body.from_date).toBe(res.body.articles.at(-1)?.published_at);
    expect(JSON.stringify(await simRequests(newsSim))).toBe(asked);
    const none = await call<NewsFeedBody>("/news/feed?tickers=NOPE", { at: AT });
    expect(none.body).toEqual({ count: 0, from_date: null, to_date: null, articles: [] });
  });

  it("stats count the stored articles by provider and language, with the instruments that have most", async () => {
    const res = await call<NewsStatsBody>("/news/stats", { at: AT });
    expect(res.status).toBe(200);
    expect(res.body.total_articles).toBeGreaterThanOrEqual(30);
    expect(res.body.by_language.de).toBeGreaterThan(0);
    expect(Object.values(res.body.by_provider).reduce((a, b) => a + b, 0)).toBe(res.body.total_articles);
    expect(res.body.top_assets.DE0007236101?.articles).toBeGreaterThanOrEqual(30);
    expect(res.body.last_fetched_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
