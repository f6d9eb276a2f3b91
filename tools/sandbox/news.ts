import { createServer, type ServerResponse } from "node:http";
import { type Clock, systemClock } from "../../src/clock";
import { companyName } from "../../src/domain/news/query";
import { FULL_CATALOGUE } from "../db/seed-indices";
import { type HttpFaultMode, SimulatorControl, sendJson } from "./control";
import { type SimStory, storiesOf } from "./news-data";

/**
 * The seven news providers on one address, each in its own wire format (reference providers.md
 * section 4): Yahoo Finance RSS, Google News RSS, Finnhub, Marketaux, NewsAPI, Alpha Vantage
 * NEWS_SENTIMENT and GDELT DOC 2.0. They tell the same stories (news-data.ts) in their own ways, so
 * that the service has duplicates to find. Keyed providers take NEWS_SIM_KEY and refuse another
 * key as the real one does. Faults (control.ts) are set on `<provider>:<ticker>` (or "*"): 500,
 * timeout, malformed, unknown (the provider's "nothing for that"), ratelimit (429), error200 (the
 * provider's error with HTTP 200: an HTML page for the RSS feeds, the JSON error for the others,
 * GDELT's plain-text rate-limit page).
 */

export type NewsFaultMode = HttpFaultMode;
export const NEWS_SIM_KEY = "sandbox-news-key";
export const NEWS_SIM_PROVIDERS = [
  "yahoo",
  "google",
  "finnhub",
  "marketaux",
  "newsapi",
  "alphavantage",
  "gdelt",
] as const;
export type NewsSimProvider = (typeof NEWS_SIM_PROVIDERS)[number];

/** Company name as the full-text providers are asked it -> the catalogue ticker whose news it is. */
const BY_COMPANY = (() => {
  const m = new Map<string, string>();
  for (const inst of FULL_CATALOGUE) {
    const first = inst.listings[0];
    if (first) m.set(companyName(inst.name).toLowerCase(), first.ticker);
  }
  return m;
})();
const quoted = (q: string) => /"([^"]+)"/.exec(q)?.[1]?.toLowerCase() ?? "";

const iso = (ms: number) => new Date(ms).toISOString();
const rfc822 = (ms: number) => new Date(ms).toUTCString().replace("GMT", "+0000");
const compact = (ms: number, zone: boolean) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, zone ? "Z" : "");
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const MINUTE = 60_000;

/** Which stories each provider tells (by the story's number), so that each is told once or more. */
const TELLS: Record<NewsSimProvider, (n: number) => boolean> = {
  yahoo: (n) => n % 3 !== 2,
  google: (n) => n % 2 === 0,
  finnhub: (n) => n % 3 !== 1,
  marketaux: (n) => n % 4 !== 3,
  newsapi: (n) => n % 5 !== 4,
  alphavantage: (n) => n % 3 !== 0,
  gdelt: (n) => n % 2 === 1,
};
const number = (s: SimStory) => Number(s.id.split("#")[1]);
const told = (p: NewsSimProvider, stories: SimStory[], language?: string) =>
  stories.filter((s) => TELLS[p](number(s)) && (!language || s.language === language));

/** A story's title with its punctuation and case changed, as some outlets re-headline. */
const retitled = (t: string) =>
  t.replace(/ : |: /, " - ").replace(/(^|\s)(\p{L})/gu, (_, space: string, c: string) => `${space}${c.toUpperCase()}`);

function rss(channel: string, items: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${esc(channel)}</title><link>https://news.example</link><description>${esc(channel)}</description>${items.join("")}
</channel></rss>`;
}

function sendText(res: ServerResponse, status: number, body: string, type: string): void {
  res.writeHead(status, { "content-type": type });
  res.end(body);
}

/** The Worker settings that aim the seven news providers at the simulator, with the key it accepts. */
export function newsSimSettings(url: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const name of ["YAHOO_RSS", "GOOGLE_RSS", "FINNHUB", "MARKETAUX", "NEWSAPI", "ALPHAVANTAGE", "GDELT"])
    settings[`NEWS_${name}_BASE_URL`] = url;
  for (const key of ["FINNHUB_API_KEY", "MARKETAUX_API_KEY", "NEWSAPI_API_KEY", "ALPHAVANTAGE_API_KEY"])
    settings[key] = NEWS_SIM_KEY;
  return settings;
}

export interface NewsSim {
  url: string;
  close(): Promise<void>;
}

export async function startNewsSim(opts: { port?: number; clock?: Clock } = {}): Promise<NewsSim> {
  const clock = opts.clock ?? systemClock;
  const control = new SimulatorControl<NewsFaultMode>();

  /** Answers a fault in the provider's manner; true when one was answered. */
  function faulted(p: NewsSimProvider, fault: NewsFaultMode | undefined, res: ServerResponse): boolean {
    switch (fault) {
      case "500":
        sendText(res, 500, "<html><body>Internal Server Error</body></html>", "text/html");
        return true;
      case "timeout":
        control.hold(res);
        return true;
      case "malformed":
        sendText(
          res,
          200,
          p === "yahoo" || p === "google" ? "<rss><channel><item><title>Trunc" : '{"data":[{"title":',
          "text/plain",
        );
        return true;
      case "ratelimit":
        sendText(
          res,
          429,
          p === "gdelt" ? "Please limit requests to one every 5 seconds." : '{"error":"Too Many Requests"}',
          "application/json",
        );
        return true;
      case "error200":
        if (p === "yahoo" || p === "google")
          sendText(
            res,
            200,
            "<html><body><h1>Our systems have detected unusual traffic</h1></body></html>",
            "text/html",
          );
        else if (p === "finnhub")
          sendJson(res, 200, { error: "API limit reached. Please try again later. Remaining Limit: 0" });
        else if (p === "marketaux")
          sendJson(res, 200, {
            error: { code: "usage_limit_reached", message: "The usage limit of your plan has been reached." },
          });
        else if (p === "newsapi")
          sendJson(res, 200, {
            status: "error",
            code: "rateLimited",
            message: "You have made too many requests recently.",
          });
        else if (p === "alphavantage")
          sendJson(res, 200, {
            Information: "Thank you for using Alpha Vantage! Our standard API rate limit is 25 requests per day.",
          });
        else
          sendText(
            res,
            200,
            "Please limit requests to one every 5 seconds or contact kalev.leetaru5@gmail.com for larger queries.",
            "text/plain",
          );
        return true;
      default:
        return false;
    }
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://sim");
    if (await control.handle(req, res, url)) return;
    const q = url.searchParams;
    const route: Record<string, NewsSimProvider> = {
      "/rss/2.0/headline": "yahoo",
      "/rss/search": "google",
      "/api/v1/company-news": "finnhub",
      "/v1/news/all": "marketaux",
      "/v2/everything": "newsapi",
      "/query": "alphavantage",
      "/api/v2/doc/doc": "gdelt",
    };
    const p = route[url.pathname];
    if (!p) return sendText(res, 404, "<html><body>Not Found</body></html>", "text/html");
    const ticker =
      p === "yahoo"
        ? (q.get("s") ?? "")
        : p === "finnhub"
          ? (q.get("symbol") ?? "")
          : p === "marketaux"
            ? (q.get("symbols") ?? "")
            : p === "alphavantage"
              ? (q.get("tickers") ?? "")
              : (BY_COMPANY.get(quoted(q.get(p === "google" || p === "newsapi" ? "q" : "query") ?? "")) ?? "");
    control.count(`${p} ${ticker}`);
    // Keys first, as the real providers check them (Finnhub and NewsAPI take theirs in a header or the query).
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === "string" ? v : null;
    };
    const key =
      p === "finnhub"
        ? (header("x-finnhub-token") ?? q.get("token"))
        : p === "marketaux"
          ? q.get("api_token")
          : p === "newsapi"
            ? (header("x-api-key") ?? q.get("apiKey"))
            : p === "alphavantage"
              ? q.get("apikey")
              : NEWS_SIM_KEY;
    if (key !== NEWS_SIM_KEY) {
      if (p === "finnhub") return sendJson(res, 401, { error: "Invalid API key" });
      if (p === "marketaux")
        return sendJson(res, 401, { error: { code: "invalid_api_token", message: "Invalid API token." } });
      if (p === "newsapi")
        return sendJson(res, 401, { status: "error", code: "apiKeyInvalid", message: "Your API key is invalid." });
      return sendJson(res, 200, { Information: "Invalid API key. Please claim your free API key." });
    }
    const fault = control.take(`${p}:${ticker}`);
    if (control.transport(fault, res) || faulted(p, fault, res)) return;
    const stories = fault === "unknown" ? [] : storiesOf(ticker, clock);
    const limit = Number(q.get("limit") ?? q.get("pageSize") ?? q.get("maxrecords") ?? 50) || 50;
    switch (p) {
      case "yahoo": {
        const items = told(p, stories, "en").map(
          (s) => `
<item><title>${esc(s.headline)}</title><link>https://finance.yahoo.com/news/${s.url.split("/").pop()}.html</link><description>${esc(s.summary)}</description><guid isPermaLink="false">${s.id}</guid><pubDate>${rfc822(s.publishedMs)}</pubDate></item>`,
        );
        return sendText(res, 200, rss(`Yahoo! Finance: ${ticker} News`, items.slice(0, 20)), "application/rss+xml");
      }
      case "google": {
        const language = (q.get("hl") ?? "en").slice(0, 2);
        const items = told(p, stories, language).map(
          (s) => `
<item><title>${esc(`${s.headline} - ${s.publisher.name}`)}</title><link>https://news.google.com/rss/articles/CBMi${Buffer.from(s.url).toString("base64url")}?oc=5</link><guid isPermaLink="false">${s.id}</guid><pubDate>${new Date(s.publishedMs + 3 * MINUTE).toUTCString()}</pubDate><description>${esc(`<a href="${s.url}" target="_blank">${esc(s.headline)}</a>&nbsp;&nbsp;<font color="#6f6f6f">${esc(s.publisher.name)}</font>`)}</description><source url="https://${s.publisher.domain}">${esc(s.publisher.name)}</source></item>`,
        );
        return sendText(res, 200, rss(`"${ticker}" - Google News`, items.slice(0, 100)), "application/rss+xml");
      }
      case "finnhub":
        return sendJson(
          res,
          200,
          told(p, stories, "en").map((s) => ({
            category: "company",
            datetime: Math.floor(s.publishedMs / 1000),
            headline: s.headline,
            id: 100_000 + number(s),
            image: number(s) % 2 ? `https://${s.publisher.domain}/img/${number(s)}.jpg` : "",
            related: ticker,
            source: s.publisher.name,
            summary: `<p>${esc(s.summary)}</p>`,
            url: `${s.url}?utm_source=finnhub&utm_medium=referral`,
          })),
        );
      case "marketaux": {
        const data = told(p, stories)
          .slice(0, limit)
          .map((s) => ({
            uuid: `${s.id}-mx`,
            title: s.headline,
            description: s.summary,
            keywords: "",
            snippet: s.summary,
            url: s.url,
            image_url: null,
            language: s.language,
            published_at: `${iso(s.publishedMs).slice(0, 19)}.000000Z`,
            source: s.publisher.domain,
            relevance_score: null,
            entities: [
              {
                symbol: ticker,
                name: s.ticker,
                type: "equity",
                match_score: 42.1,
                sentiment_score: 0.2,
                highlights: [],
              },
            ],
            similar: [],
          }));
        return sendJson(res, 200, { meta: { found: data.length, returned: data.length, limit, page: 1 }, data });
      }
      case "newsapi": {
        const language = q.get("language") ?? "en";
        const articles = told(p, stories, language)
          .slice(0, limit)
          .map((s) => ({
            source: { id: null, name: s.publisher.name },
            author: s.author,
            title: retitled(s.headline),
            description: s.summary,
            url: `${s.url}/`,
            urlToImage: null,
            publishedAt: iso(s.publishedMs + MINUTE).replace(/\.\d{3}Z$/, "Z"),
            content: `${s.summary} [+1200 chars]`,
          }));
        return sendJson(res, 200, { status: "ok", totalResults: articles.length, articles });
      }
      case "alphavantage": {
        const feed = told(p, stories, "en")
          .slice(0, limit)
          .map((s) => ({
            title: s.headline,
            url: `${s.url}#comments`,
            time_published: compact(s.publishedMs, false),
            authors: [s.author],
            summary: s.summary,
            banner_image: null,
            source: s.publisher.name,
            category_within_source: "Business",
            source_domain: s.publisher.domain,
            topics: [{ topic: "Earnings", relevance_score: "0.5" }],
            overall_sentiment_score: 0.12,
            overall_sentiment_label: "Neutral",
            ticker_sentiment: [
              {
                ticker,
                relevance_score: "0.61",
                ticker_sentiment_score: "0.21",
                ticker_sentiment_label: "Somewhat-Bullish",
              },
            ],
          }));
        if (stories.length === 0)
          return sendJson(res, 200, { Information: "Invalid inputs. Please refer to the API documentation." });
        return sendJson(res, 200, {
          items: String(feed.length),
          sentiment_score_definition: "",
          relevance_score_definition: "",
          feed,
        });
      }
      case "gdelt": {
        const names: Record<string, string> = { english: "en", french: "fr", german: "de" };
        const language = names[/sourcelang:(\w+)/.exec(q.get("query") ?? "")?.[1] ?? "english"] ?? "en";
        const langName = { en: "English", fr: "French", de: "German" }[language] ?? "English";
        const articles = told(p, stories, language)
          .slice(0, limit)
          .map((s) => ({
            url: `${s.url}?utm_campaign=gdelt`,
            url_mobile: "",
            title: s.headline,
            seendate: compact(s.publishedMs + 20 * MINUTE, true),
            socialimage: "",
            domain: s.publisher.domain.replace(/^www\./, ""),
            language: langName,
            sourcecountry: language === "en" ? "United States" : language === "fr" ? "France" : "Germany",
          }));
        return sendJson(res, 200, articles.length ? { articles } : {});
      }
    }
  });
  return control.listen(server, opts.port ?? 0);
}
