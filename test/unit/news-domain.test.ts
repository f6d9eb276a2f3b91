import { describe, expect, it } from "vitest";
import type { NewsArticle } from "../../src/domain/news/article";
import { cleanArticle } from "../../src/domain/news/clean";
import { deduplicate, duplicateGroups, titleSimilarity } from "../../src/domain/news/dedup";
import { detectLanguage, languageCode } from "../../src/domain/news/language";
import { titleKey, urlKey } from "../../src/domain/news/normalise";
import { companyName, marketLanguage } from "../../src/domain/news/query";
import { plainText } from "../../src/domain/news/text";
import { fromCompact, fromEpochSeconds, fromIso, fromRfc822 } from "../../src/domain/news/times";

const article = (over: Partial<NewsArticle>): NewsArticle => ({
  title: "t",
  summary: "",
  url: "https://example.com/a",
  source: "Reuters",
  provider: "p",
  author: null,
  language: "en",
  image_url: null,
  published_at: "2026-11-25T10:00:00.000Z",
  related_tickers: ["AAPL"],
  ...over,
});

describe("news times, each provider's format to UTC", () => {
  it("RFC 822 with numeric zones, GMT and the North American names", () => {
    expect(fromRfc822("Tue, 20 Feb 2024 14:30:00 +0000")).toBe("2024-02-20T14:30:00.000Z");
    expect(fromRfc822("Tue, 20 Feb 2024 14:30:00 GMT")).toBe("2024-02-20T14:30:00.000Z");
    expect(fromRfc822("20 Feb 2024 09:30 EST")).toBe("2024-02-20T14:30:00.000Z");
    expect(fromRfc822("Tue, 20 Feb 2024 16:30:00 +0200")).toBe("2024-02-20T14:30:00.000Z");
    expect(fromRfc822("Wed, 01 Jul 2026 07:30:00 PDT")).toBe("2026-07-01T14:30:00.000Z");
    expect(fromRfc822("Tue, 20 Feb 2024 14:30:00 UTC")).toBe("2024-02-20T14:30:00.000Z");
    expect(fromRfc822("Sat, 31 Feb 2024 10:00:00 +0000")).toBeNull();
    expect(fromRfc822("Tue, 20 Feb 2024 99:99:00 +0000")).toBeNull();
    expect(fromRfc822("yesterday")).toBeNull();
    expect(fromRfc822("Tue, 20 Foo 2024 14:30:00 +0000")).toBeNull();
  });

  it("Alpha Vantage's zone-less and GDELT's Z-suffixed compact forms, ISO with microseconds, epoch seconds", () => {
    expect(fromCompact("20240105T140300")).toBe("2024-01-05T14:03:00.000Z");
    expect(fromCompact("20240105T1403")).toBe("2024-01-05T14:03:00.000Z");
    expect(fromCompact("20240105T140000Z")).toBe("2024-01-05T14:00:00.000Z");
    expect(fromCompact("20240230T140000Z")).toBeNull();
    expect(fromIso("2024-11-08T01:24:00.000000Z")).toBe("2024-11-08T01:24:00.000Z");
    expect(fromIso("2024-01-05T15:03:00+01:00")).toBe("2024-01-05T14:03:00.000Z");
    expect(fromIso("2024-01-05 14:03")).toBeNull();
    expect(fromEpochSeconds(1704463380)).toBe("2024-01-05T14:03:00.000Z");
    expect(fromEpochSeconds("1704463380")).toBeNull();
    // Milliseconds sent for seconds: a year 55,982 is no time.
    expect(fromEpochSeconds(1704463380000)).toBeNull();
    expect(fromEpochSeconds(1e13)).toBeNull();
    expect(fromIso("2024-02-30T10:00:00Z")).toBeNull();
    expect(fromCompact("20240105T146100")).toBeNull();
  });
});

describe("news text, languages and queries", () => {
  it("strips HTML (also escaped once more) and decodes entities", () => {
    expect(plainText('<a href="x">LVMH&nbsp;rises</a>&nbsp;&nbsp;<font color="#6f6f6f">Reuters</font>')).toBe(
      "LVMH rises Reuters",
    );
    expect(plainText("&lt;p&gt;Caf&amp;eacute; &amp;amp; more&lt;/p&gt;")).toBe("Café & more");
    expect(plainText("<p>One</p><p>Two</p><script>alert(1)</script>")).toBe("One Two");
    expect(plainText("Price < 5 and > 3")).toBe("Price < 5 and > 3");
    // Unmatched brackets in bulk stay linear: the input is bounded first.
    expect(plainText("<".repeat(100_000)).length).toBeLessThanOrEqual(20_000);
  });

  it("language codes from names and locales; detection on headlines; company names without legal forms", () => {
    expect([languageCode("English"), languageCode("French"), languageCode("en-US"), languageCode("xx yy")]).toEqual([
      "en",
      "fr",
      "en",
      null,
    ]);
    expect(detectLanguage("LVMH relève ses objectifs annuels après un bon troisième trimestre")).toBe("fr");
    expect(detectLanguage("Siemens hebt die Jahresprognose an und übertrifft die Erwartungen")).toBe("de");
    expect(detectLanguage("Apple shares rise after quarterly results beat forecasts")).toBe("en");
    expect(detectLanguage("AAPL")).toBeNull();
    expect(companyName("Apple Inc.")).toBe("Apple");
    expect(companyName("JPMorgan Chase & Co.")).toBe("JPMorgan Chase");
    expect(companyName("Siemens AG")).toBe("Siemens");
    expect([marketLanguage("PAR"), marketLanguage("XETRA"), marketLanguage("NASDAQ"), marketLanguage(null)]).toEqual([
      "fr",
      "de",
      "en",
      "en",
    ]);
  });
});

describe("an article as kept", () => {
  const now = new Date("2026-11-27T12:00:00Z");
  it("loses control characters (Postgres refuses NUL), needs a title, an http(s) address and a possible time", () => {
    const a = cleanArticle(
      article({
        title: "A\u0000pple\u0007 up",
        author: "J\u0000 Doe",
        image_url: "javascript:alert(1)",
        related_tickers: ["aapl", "A\u0000B"],
      }),
      now,
    );
    expect(a).toMatchObject({ title: "Apple up", author: "J Doe", image_url: null, related_tickers: ["AAPL", "AB"] });
    expect(cleanArticle(article({ url: "" }), now)).toBeNull();
    expect(cleanArticle(article({ url: "javascript:alert(1)" }), now)).toBeNull();
    expect(cleanArticle(article({ url: `https://x.com/${"a".repeat(3000)}` }), now)).toBeNull();
    expect(cleanArticle(article({ title: " " }), now)).toBeNull();
    expect(cleanArticle(article({ published_at: "2026-11-29T00:00:00.000Z" }), now)).toBeNull();
    expect(cleanArticle(article({ published_at: "1990-01-01T00:00:00.000Z" }), now)).toBeNull();
  });
});

describe("de-duplication keys and rules", () => {
  it("URLs: lowercase, no utm_*, no fragment, no trailing slash, other parameters kept", () => {
    expect(urlKey("https://Www.Reuters.com/markets/LVMH/?utm_source=x&id=3&UTM_medium=y#top")).toBe(
      "https://www.reuters.com/markets/lvmh?id=3",
    );
    expect(urlKey("https://example.com/a/")).toBe(urlKey("https://EXAMPLE.com/a#c"));
    expect(urlKey("not a url/")).toBe("not a url");
  });

  it("titles: case, punctuation, whitespace and the aggregator's ' - Publisher' suffix folded", () => {
    expect(titleKey("LVMH's sales beat forecasts - Reuters", "Reuters")).toBe("lvmh s sales beat forecasts");
    expect(titleKey("LVMH’S  SALES beat forecasts!")).toBe("lvmh s sales beat forecasts");
    expect(titleKey("Apple shares rise after quarterly results beat forecasts - Financial Times")).toBe(
      "apple shares rise after quarterly results beat forecasts",
    );
    // A short title keeps its dash: it is part of it.
    expect(titleKey("Q3 - Apple")).toBe("q3 apple");
    expect(titleSimilarity("abc", "abc")).toBe(1);
  });

  it("the first received of one URL, the most recent of similar titles, tickers joined, newest first", () => {
    const a = article({
      url: "https://x.com/s1?utm_source=a",
      title: "Apple beats forecasts on iPhone demand",
      provider: "first",
    });
    const b = article({
      url: "https://X.com/s1/",
      title: "Apple beats forecasts on iPhone demand",
      provider: "second",
      published_at: "2026-11-25T11:00:00.000Z",
    });
    const c = article({
      url: "https://news.google.com/rss/articles/abc",
      title: "Apple Beats Forecasts On iPhone Demand - Reuters",
      published_at: "2026-11-25T12:00:00.000Z",
      related_tickers: ["MSFT"],
      provider: "third",
    });
    const d = article({
      url: "https://y.com/other",
      title: "Microsoft opens a new data centre in Ireland",
      published_at: "2026-11-25T09:00:00.000Z",
    });
    const r = deduplicate([a, b, c, d], 0.85);
    expect(r.droppedByUrl).toBe(1);
    expect(r.droppedByTitle).toBe(1);
    expect(r.kept.map((k) => k.provider)).toEqual(["third", "p"]);
    expect(r.kept[0]?.related_tickers).toEqual(["AAPL", "MSFT"]);
    expect(deduplicate([], 0.85).kept).toEqual([]);
  });

  it("no chains: an article dropped is similar to the one kept for it, not only to a neighbour", () => {
    // Each title is one character from the next: k1q1 ~ k1q2 ~ k2q2, but k1q1 and k2q2 are two apart (0.82).
    const t = ["Apple k1 q1", "Apple k1 q2", "Apple k2 q2"];
    const many = t.map((title, i) =>
      article({ url: `https://z.com/${i}`, title, published_at: `2026-11-25T1${i}:00:00.000Z` }),
    );
    const { groups, kept } = duplicateGroups(many, 0.85);
    // The newest (k2 q2) keeps k1 q2; k1 q1 is not that near to it and stands alone.
    expect(groups).toEqual([[1, 2], [0]]);
    groups.forEach((g, n) => {
      const leader = titleKey((many[kept[n] as number] as NewsArticle).title);
      for (const m of g)
        expect(titleSimilarity(leader, titleKey((many[m] as NewsArticle).title))).toBeGreaterThanOrEqual(0.85);
    });
  });

  it("blocking holds when every title shares its words: 2,000 short titles, far fewer than two million comparisons", () => {
    const words = "apple stock rises falls beats misses forecast outlook shares trading".split(" ");
    // Titles from a ten-word vocabulary: every token is common, the worst case for token blocking.
    const many = Array.from({ length: 2000 }, (_, i) =>
      article({
        url: `https://z.com/${i}`,
        title: [0, 1, 2, 3, 4].map((k) => words[Math.floor(i / 10 ** (k % 4)) % 10]).join(" "),
        published_at: new Date(Date.UTC(2026, 10, 20) + i * 60_000).toISOString(),
      }),
    );
    const r = deduplicate(many, 0.85);
    expect(r.comparisons).toBeLessThan(2000 * 3 * 64);
    expect(r.comparisons).toBeLessThan(400_000);
  });
});
