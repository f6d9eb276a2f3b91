import { z } from "zod";
import type { SchemaDrift } from "../../domain/drift";
import type { NewsArticle } from "../../domain/news/article";
import { plainText, textOrNull } from "../../domain/news/text";
import { fromIso } from "../../domain/news/times";
import { NEWS_NEWSAPI } from "../../domain/provider-names";
import type { WireNode } from "../../domain/wire-schema";
import { NewsClient, type NewsQuery } from "./client";
import { keep } from "./keyed-shared";

/** NewsAPI news, a keyed provider (not asked without its key; the key never appears in a failure). */

/** What the client reads of an item, field by field: the `required` ones make an article. */
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
