import { describe, expect, it } from "vitest";
import type { NewsArticle } from "../../src/domain/news/article";
import { deduplicate, titleSimilarity } from "../../src/domain/news/dedup";
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
  });
});

describe("news text, languages and queries", () => {
  it("strips HTML (also escaped once more) and decodes entities", () => {
    expect(plainText('<a href="x">LVMH&nbsp;rises</a>&nbsp;&nbsp;<font color="#6f6f6f">Reuters</font>')).toBe(
      "LVMH rises Reuters",
    );
    expect(plainText("&lt;p&gt;Caf&amp;eacute; &amp;amp; more&lt;/p&gt;")).toBe("Café & more");
    expect(plainText("<p>One</p><p>Two</p><script>alert(1)</script>")).toBe("One Two");
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

  it("blocking: 2,000 distinct titles cost a small share of the two million comparisons", () => {
    const words = "alpha beta gamma delta epsilon zeta theta iota kappa lambda omicron sigma".split(" ");
    const many = Array.from({ length: 2000 }, (_, i) =>
      article({
        url: `https://z.com/${i}`,
        title: `Company ${i} ${words[i % 12]} ${words[(i * 7) % 12]} reports results number ${i * 13}`,
      }),
    );
    const r = deduplicate(many, 0.85);
    expect(r.comparisons).toBeLessThan(200_000);
  });
});
