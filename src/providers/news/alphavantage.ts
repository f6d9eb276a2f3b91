import { z } from "zod";
import type { SchemaDrift } from "../../domain/drift";
import type { NewsArticle } from "../../domain/news/article";
import { plainText, textOrNull } from "../../domain/news/text";
import { fromCompact } from "../../domain/news/times";
import { NEWS_ALPHAVANTAGE } from "../../domain/provider-names";
import type { WireNode } from "../../domain/wire-schema";
import { NewsClient, type NewsQuery } from "./client";
import { detected, keep } from "./keyed-shared";

/** Alpha Vantage news, a keyed provider (not asked without its key; the key never appears in a failure). */

/** What the client reads of an item, field by field: the `required` ones make an article. */
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
