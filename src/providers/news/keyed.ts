import { z } from "zod";
import type { SchemaDrift } from "../../domain/drift";
import type { NewsArticle } from "../../domain/news/article";
import { detectLanguage, languageCode } from "../../domain/news/language";
import { plainText, textOrNull } from "../../domain/news/text";
import { fromCompact, fromEpochSeconds, fromIso } from "../../domain/news/times";
import { NEWS_ALPHAVANTAGE, NEWS_FINNHUB, NEWS_MARKETAUX, NEWS_NEWSAPI } from "../../domain/provider-names";
import type { WireNode } from "../../domain/wire-schema";
import { NewsClient, type NewsQuery } from "./client";

/** The keyed providers (each not asked without its key). Their keys never appear in a failure. */

const keep = (a: NewsArticle | null): a is NewsArticle => a !== null;
const detected = (title: string, summary: string) => detectLanguage(`${title}. ${summary}`);

/** What a client reads of an item, field by field: the `required` ones make an article. */
export const FINNHUB_ITEM: WireNode = {
  fields: {
    datetime: { required: "number" },
    headline: { required: "string" },
    url: { required: "string" },
    image: "string",
    related: "string",
    source: "string",
    summary: "string",
  },
};
interface FinnhubItem {
  datetime: number;
  headline: string;
  url: string;
  image?: string;
  related?: string;
  source?: string;
  summary?: string;
}

/**
 * Finnhub company-news: `/api/v1/company-news?symbol=&from=&to=&token=`, an array (epoch-second
 * times, `related` a comma string, no language: detected); `{"error": ...}` is a failure, also with
 * HTTP 200.
 */
export class FinnhubNews extends NewsClient {
  readonly name = NEWS_FINNHUB;
  protected readonly keyed = true;

  protected async read(q: NewsQuery, drifts: SchemaDrift[]): Promise<NewsArticle[]> {
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
    return this.items<FinnhubItem>(items.data, FINNHUB_ITEM, "company-news", drifts)
      .map((r): NewsArticle | null => {
        const published = fromEpochSeconds(r.datetime);
        if (!published) this.unreadable(drifts, "company-news", "[].datetime", "epoch seconds", r.datetime);
        if (!published || !r.headline.trim()) return null;
        const title = plainText(r.headline);
        const summary = plainText(r.summary);
        return {
          title,
          summary,
          url: r.url,
          source: textOrNull(r.source) ?? "Finnhub",
          provider: this.name,
          author: null,
          language: detected(title, summary),
          image_url: textOrNull(r.image),
          published_at: published,
          related_tickers: (r.related ?? q.ticker)
            .split(",")
            .map((t) => t.trim().toUpperCase())
            .filter(Boolean),
        };
      })
      .filter(keep)
      .slice(0, q.limit);
  }
}

export const MARKETAUX_ITEM: WireNode = {
  fields: {
    title: { required: "string" },
    url: { required: "string" },
    published_at: { required: "string" },
    description: "string",
    snippet: "string",
    image_url: "string",
    language: "string",
    source: "string",
    entities: { list: { fields: { symbol: "string" } } },
  },
};
interface MarketauxItem {
  title: string;
  url: string;
  published_at: string;
  description?: string;
  snippet?: string;
  image_url?: string;
  language?: string;
  source?: string;
  entities?: { symbol?: string }[];
}

/**
 * Marketaux: `/v1/news/all?symbols=&filter_entities=true&limit=&published_after=&api_token=`,
 * `{meta, data}` with a language, microsecond ISO times and the entities' symbols; errors as
 * `{"error": {code, message}}`.
 */
export class MarketauxNews extends NewsClient {
  readonly name = NEWS_MARKETAUX;
  protected readonly keyed = true;

  protected async read(q: NewsQuery, drifts: SchemaDrift[]): Promise<NewsArticle[]> {
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
    return this.items<MarketauxItem>(parsed.data.data, MARKETAUX_ITEM, "news", drifts)
      .map((r): NewsArticle | null => {
        const published = fromIso(r.published_at);
        if (!published) this.unreadable(drifts, "news", "[].published_at", "an ISO 8601 time", r.published_at);
        if (!published) return null;
        const title = plainText(r.title);
        const summary = plainText(r.description || r.snippet);
        return {
          title,
          summary,
          url: r.url,
          source: textOrNull(r.source) ?? "Marketaux",
          provider: this.name,
          author: null,
          language: languageCode(r.language) ?? detected(title, summary),
          image_url: textOrNull(r.image_url),
          published_at: published,
          related_tickers: [...new Set((r.entities ?? []).flatMap((e) => (e.symbol ? [e.symbol.toUpperCase()] : [])))],
        };
      })
      .filter(keep)
      .slice(0, q.limit);
  }
}

export const NEWSAPI_ITEM: WireNode = {
  fields: {
    title: { required: "string" },
    url: { required: "string" },
    publishedAt: { required: "string" },
    source: { fields: { name: "string" } },
    author: "string",
    description: "string",
    urlToImage: "string",
  },
};
interface NewsApiItem {
  title: string;
  url: string;
  publishedAt: string;
  source?: { name?: string };
  author?: string;
  description?: string;
  urlToImage?: string;
}

/**
 * NewsAPI everything: `/v2/everything?q=&language=&sortBy=publishedAt&pageSize=&from=&apiKey=`,
 * asked in the listing market's language (its only language information); removed articles
 * ("[Removed]") are left out; errors as `{"status":"error","code"}`.
 */
export class NewsApiNews extends NewsClient {
  readonly name = NEWS_NEWSAPI;
  protected readonly keyed = true;

  protected async read(q: NewsQuery, drifts: SchemaDrift[]): Promise<NewsArticle[]> {
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
    return this.items<NewsApiItem>(parsed.data.articles, NEWSAPI_ITEM, "everything", drifts)
      .map((r): NewsArticle | null => {
        const published = fromIso(r.publishedAt);
        if (!published) this.unreadable(drifts, "everything", "[].publishedAt", "an ISO 8601 time", r.publishedAt);
        if (!published || r.title === "[Removed]") return null;
        return {
          title: plainText(r.title),
          summary: plainText(r.description),
          url: r.url,
          source: textOrNull(r.source?.name) ?? "NewsAPI",
          provider: this.name,
          author: textOrNull(r.author),
          language: q.language,
          image_url: textOrNull(r.urlToImage),
          published_at: published,
          related_tickers: [q.ticker],
        };
      })
      .filter(keep)
      .slice(0, q.limit);
  }
}

export const ALPHAVANTAGE_ITEM: WireNode = {
  fields: {
    title: { required: "string" },
    url: { required: "string" },
    time_published: { required: "string" },
    authors: { list: "string" },
    summary: "string",
    banner_image: "string",
    source: "string",
    ticker_sentiment: { list: { fields: { ticker: { required: "string" } } } },
  },
};
interface AlphaItem {
  title: string;
  url: string;
  time_published: string;
  authors?: string[];
  summary?: string;
  banner_image?: string;
  source?: string;
  ticker_sentiment?: { ticker: string }[];
}

/**
 * Alpha Vantage NEWS_SENTIMENT: `/query?function=NEWS_SENTIMENT&tickers=&limit=&sort=LATEST&time_from=&apikey=`,
 * `feed` items with `YYYYMMDDTHHMMSS` times and the tickers of `ticker_sentiment`. Its errors come
 * with HTTP 200: `Information` / `Note` (the rate limit, or invalid inputs), `Error Message`.
 */
export class AlphaVantageNews extends NewsClient {
  readonly name = NEWS_ALPHAVANTAGE;
  protected readonly keyed = true;

  protected async read(q: NewsQuery, drifts: SchemaDrift[]): Promise<NewsArticle[]> {
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
    return this.items<AlphaItem>(parsed.data.feed, ALPHAVANTAGE_ITEM, "NEWS_SENTIMENT", drifts)
      .map((r): NewsArticle | null => {
        const published = fromCompact(r.time_published);
        if (!published)
          this.unreadable(drifts, "NEWS_SENTIMENT", "[].time_published", "a time YYYYMMDDTHHMMSS", r.time_published);
        if (!published) return null;
        const title = plainText(r.title);
        const summary = plainText(r.summary);
        const authors = (r.authors ?? []).flatMap((a) => (a.trim() ? [a.trim()] : []));
        return {
          title,
          summary,
          url: r.url,
          source: textOrNull(r.source) ?? "Alpha Vantage",
          provider: this.name,
          author: authors.length ? authors.join(", ") : null,
          language: detected(title, summary),
          image_url: textOrNull(r.banner_image),
          published_at: published,
          related_tickers: [...new Set((r.ticker_sentiment ?? []).map((t) => t.ticker.toUpperCase()))],
        };
      })
      .filter(keep)
      .slice(0, q.limit);
  }
}
