import { z } from "zod";
import type { SchemaDrift } from "../../domain/drift";
import type { NewsArticle } from "../../domain/news/article";
import { languageCode } from "../../domain/news/language";
import { plainText, textOrNull } from "../../domain/news/text";
import { fromIso } from "../../domain/news/times";
import { NEWS_MARKETAUX } from "../../domain/provider-names";
import type { WireNode } from "../../domain/wire-schema";
import { NewsClient, type NewsQuery } from "./client";
import { detected, keep } from "./keyed-shared";

/** Marketaux news, a keyed provider (not asked without its key; the key never appears in a failure). */

/** What the client reads of an item, field by field: the `required` ones make an article. */
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
      // The largest plan returns at most 100 a page.
      limit: String(Math.min(q.limit, 100)),
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
