import { z } from "zod";
import type { SchemaDrift } from "../../domain/drift";
import type { NewsArticle } from "../../domain/news/article";
import { plainText, textOrNull } from "../../domain/news/text";
import { fromEpochSeconds } from "../../domain/news/times";
import { NEWS_FINNHUB } from "../../domain/provider-names";
import type { WireNode } from "../../domain/wire-schema";
import { NewsClient, type NewsQuery } from "./client";
import { detected, keep } from "./keyed-shared";

/** Finnhub news, a keyed provider (not asked without its key; the key never appears in a failure). */

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
