import { describe, type SchemaDrift } from "../../domain/drift";
import type { NewsArticle } from "../../domain/news/article";
import { plainText, textOrNull } from "../../domain/news/text";
import { fromRfc822 } from "../../domain/news/times";
import { NEWS_GOOGLE, NEWS_YAHOO } from "../../domain/provider-names";
import { NewsClient, type NewsQuery, rssItems, xmlText } from "./client";

/**
 * Yahoo Finance's headline RSS (keyless): `/rss/2.0/headline?s=AAPL&region=US&lang=en-US`, items
 * with title, link, a plain teaser and an RFC 822 pubDate; no author, image or tickers (the
 * requested symbol is the related ticker), English (the feed's `lang`).
 */
export class YahooRssNews extends NewsClient {
  readonly name = NEWS_YAHOO;
  protected readonly keyed = false;

  protected async read(q: NewsQuery, drifts: SchemaDrift[]): Promise<NewsArticle[]> {
    const params = new URLSearchParams({ s: q.ticker, region: "US", lang: "en-US" });
    const { status, text } = await this.get(`/rss/2.0/headline?${params}`, { accept: "application/rss+xml" });
    this.expectOk(status);
    return rssItems(this.name, text)
      .map((item): NewsArticle | null => {
        const title = plainText(xmlText(item.title));
        const url = xmlText(item.link).trim();
        const published = fromRfc822(xmlText(item.pubDate));
        if (!title || !url || !published) {
          reportMissing(this, drifts, item, { title, url, published });
          return null;
        }
        return {
          title,
          summary: plainText(xmlText(item.description)),
          url,
          source: "Yahoo Finance",
          provider: this.name,
          author: null,
          language: "en",
          image_url: null,
          published_at: published,
          related_tickers: [q.ticker],
        };
      })
      .filter((a): a is NewsArticle => a !== null)
      .slice(0, q.limit);
  }
}

/** The RSS fields an item lacks (or whose pubDate is no RFC 822 time), as drift. */
function reportMissing(
  client: { name: string },
  drifts: SchemaDrift[],
  item: Record<string, unknown>,
  read: { title: string; url: string; published: string | null },
): void {
  const push = (path: string, expected: string, seen: unknown) =>
    drifts.push({ provider: client.name, document: "rss", path, expected, seen: describe(seen) });
  if (!read.title) push("item.title", "a title", item.title);
  if (!read.url) push("item.link", "an address", item.link);
  if (!read.published) push("item.pubDate", "an RFC 822 time", item.pubDate);
}

/** Google News' locale parameters for a language. */
const LOCALES: Record<string, { hl: string; gl: string; ceid: string }> = {
  en: { hl: "en-US", gl: "US", ceid: "US:en" },
  fr: { hl: "fr", gl: "FR", ceid: "FR:fr" },
  de: { hl: "de", gl: "DE", ceid: "DE:de" },
  it: { hl: "it", gl: "IT", ceid: "IT:it" },
  es: { hl: "es", gl: "ES", ceid: "ES:es" },
  nl: { hl: "nl", gl: "NL", ceid: "NL:nl" },
};

/**
 * Google News' search RSS (keyless): `/rss/search?q="Apple" AAPL when:7d&hl=..&gl=..&ceid=..` in the
 * listing market's language. Titles end in " - Publisher" (taken off, the publisher is the
 * source), links are Google's redirects, the description only repeats the headline (no summary).
 */
export class GoogleRssNews extends NewsClient {
  readonly name = NEWS_GOOGLE;
  protected readonly keyed = false;

  protected async read(q: NewsQuery, drifts: SchemaDrift[]): Promise<NewsArticle[]> {
    const locale = LOCALES[q.language] ?? (LOCALES.en as (typeof LOCALES)[string]);
    const base = q.ticker.split(".")[0] ?? q.ticker;
    const params = new URLSearchParams({ q: `"${q.company}" ${base} when:7d`, ...locale });
    const { status, text } = await this.get(`/rss/search?${params}`, { accept: "application/rss+xml" });
    this.expectOk(status);
    const language = locale.hl.slice(0, 2);
    return rssItems(this.name, text)
      .map((item): NewsArticle | null => {
        const source = textOrNull(xmlText(item.source)) ?? "Google News";
        let title = plainText(xmlText(item.title));
        const suffix = ` - ${source}`;
        if (title.endsWith(suffix)) title = title.slice(0, -suffix.length).trim();
        const url = xmlText(item.link).trim();
        const published = fromRfc822(xmlText(item.pubDate));
        if (!title || !url || !published) {
          reportMissing(this, drifts, item, { title, url, published });
          return null;
        }
        return {
          title,
          summary: "",
          url,
          source,
          provider: this.name,
          author: null,
          language,
          image_url: null,
          published_at: published,
          related_tickers: [q.ticker],
        };
      })
      .filter((a): a is NewsArticle => a !== null)
      .slice(0, q.limit);
  }
}
