import { z } from "zod";
import type { NewsArticle } from "../../domain/news/article";
import { detectLanguage, languageCode } from "../../domain/news/language";
import { plainText, textOrNull } from "../../domain/news/text";
import { fromCompact, fromEpochSeconds, fromIso } from "../../domain/news/times";
import { NEWS_ALPHAVANTAGE, NEWS_FINNHUB, NEWS_MARKETAUX, NEWS_NEWSAPI } from "../names";
import { NewsClient, type NewsQuery } from "./client";

/** The keyed providers (each not asked without its key). Their keys never appear in a failure. */

const keep = (a: NewsArticle | null): a is NewsArticle => a !== null;
const detected = (title: string, summary: string) => detectLanguage(`${title}. ${summary}`);

const finnhubItem = z.object({
  datetime: z.number(),
  headline: z.string(),
  image: z.string().nullish(),
  related: z.string().nullish(),
  source: z.string().nullish(),
  summary: z.string().nullish(),
  url: z.string(),
});

/**
 * Finnhub company-news: `/api/v1/company-news?symbol=&from=&to=&token=`, an array (epoch-second
 * times, `related` a comma string, no language: detected); `{"error": ...}` is a failure, also with
 * HTTP 200.
 */
export class FinnhubNews extends NewsClient {
  readonly name = NEWS_FINNHUB;
  protected readonly keyed = true;

  protected async read(q: NewsQuery): Promise<NewsArticle[]> {
    const params = new URLSearchParams({ symbol: q.ticker, from: q.from, to: q.to });
    // The key in a header, not the address (an address can end up in a log).
    const { status, text } = await this.get(`/api/v1/company-news?${params}`, {
      "x-finnhub-token": this.opts.key ?? "",
    });
    const body = this.json(status, text);
    const error = z.object({ error: z.string() }).safeParse(body);
    if (error.success) {
      if (/limit/i.test(error.data.error)) throw this.fail("rate_limited", "API limit reached");
      if (status === 401 || /api key/i.test(error.data.error))
        throw this.fail("unavailable", "the API key was refused");
      throw this.fail("unavailable", `refused (HTTP ${status})`);
    }
    this.expectOk(status);
    const items = z.array(z.unknown()).safeParse(body);
    if (!items.success) throw this.fail("bad_response", "company news of unexpected shape");
    return items.data
      .map((raw): NewsArticle | null => {
        const r = finnhubItem.safeParse(raw);
        const published = r.success ? fromEpochSeconds(r.data.datetime) : null;
        if (!r.success || !published || !r.data.headline.trim()) return null;
        const title = plainText(r.data.headline);
        const summary = plainText(r.data.summary);
        return {
          title,
          summary,
          url: r.data.url,
          source: textOrNull(r.data.source) ?? "Finnhub",
          provider: this.name,
          author: null,
          language: detected(title, summary),
          image_url: textOrNull(r.data.image),
          published_at: published,
          related_tickers: (r.data.related ?? q.ticker)
            .split(",")
            .map((t) => t.trim().toUpperCase())
            .filter(Boolean),
        };
      })
      .filter(keep)
      .slice(0, q.limit);
  }
}

const marketauxItem = z.object({
  title: z.string(),
  description: z.string().nullish(),
  snippet: z.string().nullish(),
  url: z.string(),
  image_url: z.string().nullish(),
  language: z.string().nullish(),
  published_at: z.string(),
  source: z.string().nullish(),
  entities: z
    .array(z.object({ symbol: z.string().nullish() }).passthrough())
    .nullish()
    .catch(null),
});

/**
 * Marketaux: `/v1/news/all?symbols=&filter_entities=true&limit=&published_after=&api_token=`,
 * `{meta, data}` with a language, microsecond ISO times and the entities' symbols; errors as
 * `{"error": {code, message}}`.
 */
export class MarketauxNews extends NewsClient {
  readonly name = NEWS_MARKETAUX;
  protected readonly keyed = true;

  protected async read(q: NewsQuery): Promise<NewsArticle[]> {
    const params = new URLSearchParams({
      symbols: q.ticker,
      filter_entities: "true",
      limit: String(q.limit),
      published_after: `${q.from}T00:00`,
      api_token: this.opts.key ?? "",
    });
    const { status, text } = await this.get(`/v1/news/all?${params}`);
    const body = this.json(status, text);
    const error = z.object({ error: z.object({ code: z.string() }) }).safeParse(body);
    if (error.success) {
      const code = error.data.error.code;
      if (code === "rate_limit_reached" || code === "usage_limit_reached") throw this.fail("rate_limited", code);
      if (code === "invalid_api_token") throw this.fail("unavailable", "the API key was refused");
      throw this.fail("bad_response", code);
    }
    this.expectOk(status);
    const parsed = z.object({ data: z.array(z.unknown()) }).safeParse(body);
    if (!parsed.success) throw this.fail("bad_response", "news of unexpected shape");
    return parsed.data.data
      .map((raw): NewsArticle | null => {
        const r = marketauxItem.safeParse(raw);
        const published = r.success ? fromIso(r.data.published_at) : null;
        if (!r.success || !published) return null;
        const title = plainText(r.data.title);
        const summary = plainText(r.data.description || r.data.snippet);
        return {
          title,
          summary,
          url: r.data.url,
          source: textOrNull(r.data.source) ?? "Marketaux",
          provider: this.name,
          author: null,
          language: languageCode(r.data.language) ?? detected(title, summary),
          image_url: textOrNull(r.data.image_url),
          published_at: published,
          related_tickers: [
            ...new Set((r.data.entities ?? []).flatMap((e) => (e.symbol ? [e.symbol.toUpperCase()] : []))),
          ],
        };
      })
      .filter(keep)
      .slice(0, q.limit);
  }
}

const newsApiItem = z.object({
  source: z.object({ name: z.string().nullish() }).nullish(),
  author: z.string().nullish(),
  title: z.string(),
  description: z.string().nullish(),
  url: z.string(),
  urlToImage: z.string().nullish(),
  publishedAt: z.string(),
});

/**
 * NewsAPI everything: `/v2/everything?q=&language=&sortBy=publishedAt&pageSize=&from=&apiKey=`,
 * asked in the listing market's language (its only language information); removed articles
 * ("[Removed]") are left out; errors as `{"status":"error","code"}`.
 */
export class NewsApiNews extends NewsClient {
  readonly name = NEWS_NEWSAPI;
  protected readonly keyed = true;

  protected async read(q: NewsQuery): Promise<NewsArticle[]> {
    const base = q.ticker.split(".")[0] ?? q.ticker;
    const params = new URLSearchParams({
      q: `"${q.company}" OR ${base}`,
      language: q.language,
      sortBy: "publishedAt",
      pageSize: String(Math.min(q.limit, 100)),
      from: q.from,
    });
    const { status, text } = await this.get(`/v2/everything?${params}`, { "x-api-key": this.opts.key ?? "" });
    const body = this.json(status, text);
    const error = z.object({ status: z.literal("error"), code: z.string() }).safeParse(body);
    if (error.success) {
      const code = error.data.code;
      if (code === "rateLimited") throw this.fail("rate_limited", code);
      if (code === "apiKeyInvalid" || code === "apiKeyMissing" || code === "apiKeyDisabled")
        throw this.fail("unavailable", "the API key was refused");
      throw this.fail("bad_response", code);
    }
    this.expectOk(status);
    const parsed = z.object({ status: z.literal("ok"), articles: z.array(z.unknown()) }).safeParse(body);
    if (!parsed.success) throw this.fail("bad_response", "articles of unexpected shape");
    return parsed.data.articles
      .map((raw): NewsArticle | null => {
        const r = newsApiItem.safeParse(raw);
        const published = r.success ? fromIso(r.data.publishedAt) : null;
        if (!r.success || !published || r.data.title === "[Removed]") return null;
        return {
          title: plainText(r.data.title),
          summary: plainText(r.data.description),
          url: r.data.url,
          source: textOrNull(r.data.source?.name) ?? "NewsAPI",
          provider: this.name,
          author: textOrNull(r.data.author),
          language: q.language,
          image_url: textOrNull(r.data.urlToImage),
          published_at: published,
          related_tickers: [q.ticker],
        };
      })
      .filter(keep)
      .slice(0, q.limit);
  }
}

const alphaItem = z.object({
  title: z.string(),
  url: z.string(),
  time_published: z.string(),
  authors: z.array(z.unknown()).nullish().catch(null),
  summary: z.string().nullish(),
  banner_image: z.string().nullish(),
  source: z.string().nullish(),
  ticker_sentiment: z
    .array(z.object({ ticker: z.string() }))
    .nullish()
    .catch(null),
});

/**
 * Alpha Vantage NEWS_SENTIMENT: `/query?function=NEWS_SENTIMENT&tickers=&limit=&sort=LATEST&time_from=&apikey=`,
 * `feed` items with `YYYYMMDDTHHMMSS` times and the tickers of `ticker_sentiment`. Its errors come
 * with HTTP 200: `Information` / `Note` (the rate limit, or invalid inputs), `Error Message`.
 */
export class AlphaVantageNews extends NewsClient {
  readonly name = NEWS_ALPHAVANTAGE;
  protected readonly keyed = true;

  protected async read(q: NewsQuery): Promise<NewsArticle[]> {
    const params = new URLSearchParams({
      function: "NEWS_SENTIMENT",
      tickers: q.ticker,
      limit: String(Math.min(q.limit, 1000)),
      sort: "LATEST",
      time_from: `${q.from.replaceAll("-", "")}T0000`,
      apikey: this.opts.key ?? "",
    });
    const { status, text } = await this.get(`/query?${params}`);
    const body = this.json(status, text);
    const notice = z
      .object({
        Information: z.string().optional(),
        Note: z.string().optional(),
        "Error Message": z.string().optional(),
      })
      .safeParse(body);
    const message = notice.success
      ? (notice.data.Information ?? notice.data.Note ?? notice.data["Error Message"])
      : undefined;
    if (message) {
      if (/invalid inputs/i.test(message)) throw this.fail("not_found", "no news for the ticker (invalid inputs)");
      if (/rate limit|requests per|premium|frequency/i.test(message))
        throw this.fail("rate_limited", "rate limit reached (said with HTTP 200)");
      if (/api ?key/i.test(message)) throw this.fail("unavailable", "the API key was refused");
      throw this.fail("bad_response", "an error said with HTTP 200");
    }
    this.expectOk(status);
    const parsed = z.object({ feed: z.array(z.unknown()) }).safeParse(body);
    if (!parsed.success) throw this.fail("bad_response", "feed of unexpected shape");
    return parsed.data.feed
      .map((raw): NewsArticle | null => {
        const r = alphaItem.safeParse(raw);
        const published = r.success ? fromCompact(r.data.time_published) : null;
        if (!r.success || !published) return null;
        const title = plainText(r.data.title);
        const summary = plainText(r.data.summary);
        const authors = (r.data.authors ?? []).flatMap((a) => (typeof a === "string" && a.trim() ? [a.trim()] : []));
        return {
          title,
          summary,
          url: r.data.url,
          source: textOrNull(r.data.source) ?? "Alpha Vantage",
          provider: this.name,
          author: authors.length ? authors.join(", ") : null,
          language: detected(title, summary),
          image_url: textOrNull(r.data.banner_image),
          published_at: published,
          related_tickers: [...new Set((r.data.ticker_sentiment ?? []).map((t) => t.ticker.toUpperCase()))],
        };
      })
      .filter(keep)
      .slice(0, q.limit);
  }
}
