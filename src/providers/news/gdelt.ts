import { z } from "zod";
import type { SchemaDrift } from "../../domain/drift";
import type { NewsArticle } from "../../domain/news/article";
import { detectLanguage, languageCode } from "../../domain/news/language";
import { plainText, textOrNull } from "../../domain/news/text";
import { fromCompact } from "../../domain/news/times";
import { NEWS_GDELT } from "../../domain/provider-names";
import type { WireNode } from "../../domain/wire-schema";
import { NewsClient, type NewsQuery } from "./client";

/** GDELT's source-language names of the listing markets' languages. */
const SOURCE_LANG: Record<string, string> = {
  en: "english",
  fr: "french",
  de: "german",
  it: "italian",
  es: "spanish",
  nl: "dutch",
};

/** What the client reads of an article, field by field: the `required` ones make an article. */
export const GDELT_ITEM: WireNode = {
  fields: {
    url: { required: "string" },
    title: { required: "string" },
    seendate: { required: "string" },
    socialimage: "string",
    domain: "string",
    language: "string",
  },
};
interface GdeltItem {
  url: string;
  title: string;
  seendate: string;
  socialimage?: string;
  domain?: string;
  language?: string;
}

/**
 * GDELT DOC 2.0 (keyless): `/api/v2/doc/doc?query="Company" sourcelang:<lang>&mode=ArtList&format=json&sort=DateDesc&timespan=7d`.
 * Articles with `seendate` (UTC), the domain as source and the language as an English name; `{}`
 * when nothing matches. Its errors are plain text, sometimes with HTTP 200 (the one-request-per-5-
 * seconds page): anything that is not JSON is a failure, never an empty answer.
 */
export class GdeltNews extends NewsClient {
  readonly name = NEWS_GDELT;
  protected readonly keyed = false;

  protected async read(q: NewsQuery, drifts: SchemaDrift[]): Promise<NewsArticle[]> {
    const lang = SOURCE_LANG[q.language] ?? "english";
    const params = new URLSearchParams({
      query: `"${q.company}" sourcelang:${lang}`,
      mode: "ArtList",
      format: "json",
      maxrecords: String(Math.min(q.limit, 250)),
      sort: "DateDesc",
      timespan: "7d",
    });
    const { status, text } = await this.get(`/api/v2/doc/doc?${params}`);
    this.expectOk(status);
    const trimmed = text.trim();
    if (!trimmed.startsWith("{")) {
      if (/limit requests/i.test(trimmed)) throw this.fail("rate_limited", "rate limit page (said with HTTP 200)");
      // A company name GDELT finds too short to search ("GE") is an answer: nothing to find this way.
      if (/too short|too common/i.test(trimmed)) throw this.fail("not_found", "the name is too short to search");
      throw this.fail("bad_response", "a text answer instead of JSON");
    }
    const parsed = z.object({ articles: z.array(z.unknown()).optional() }).safeParse(this.json(status, trimmed));
    if (!parsed.success) throw this.fail("bad_response", "articles of unexpected shape");
    return this.items<GdeltItem>(parsed.data.articles ?? [], GDELT_ITEM, "artlist", drifts)
      .map((r): NewsArticle | null => {
        const published = fromCompact(r.seendate);
        if (!published) this.unreadable(drifts, "artlist", "[].seendate", "a time YYYYMMDDTHHMMSSZ", r.seendate);
        if (!published) return null;
        return {
          title: plainText(r.title),
          summary: "",
          url: r.url,
          source: textOrNull(r.domain) ?? "GDELT",
          provider: this.name,
          author: null,
          language: languageCode(r.language) ?? detectLanguage(r.title),
          image_url: textOrNull(r.socialimage),
          published_at: published,
          related_tickers: [q.ticker],
        };
      })
      .filter((a): a is NewsArticle => a !== null)
      .slice(0, q.limit);
  }
}
