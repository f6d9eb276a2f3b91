import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { pinnedClock } from "../../src/clock";
import type { NewsArticle } from "../../src/domain/news/article";
import { deduplicate } from "../../src/domain/news/dedup";
import { FULL_CATALOGUE } from "../db/seed-indices";
import { storiesOf } from "../sandbox/news-data";

/**
 * `npm run bench:news`: the de-duplication of 200, 2,000 and 20,000 articles (the sandbox's stories
 * of the catalogue's tickers, each told four ways as the providers tell it: the publisher's URL, a
 * utm-tagged copy, an aggregator's address with " - Publisher" after the title, and a re-headlined
 * copy), median of 5 runs each, with the title comparisons made against the n(n-1)/2 of comparing
 * every pair. Prints one JSON document; `--out FILE` also writes it.
 */
const SIZES = [200, 2_000, 20_000];
const RUNS = 5;

function corpus(n: number): NewsArticle[] {
  const clock = pinnedClock("2026-11-27T12:30:00Z");
  const out: NewsArticle[] = [];
  for (const inst of FULL_CATALOGUE) {
    const ticker = inst.listings[0]?.ticker;
    if (!ticker) continue;
    for (const s of storiesOf(ticker, clock)) {
      const base = {
        summary: s.summary,
        source: s.publisher.name,
        provider: "bench",
        author: null,
        language: s.language,
        image_url: null,
        related_tickers: [ticker],
      };
      const at = (min: number) => new Date(s.publishedMs + min * 60_000).toISOString();
      out.push(
        { ...base, title: s.headline, url: s.url, published_at: at(0) },
        { ...base, title: s.headline, url: `${s.url}?utm_source=feed`, published_at: at(0) },
        {
          ...base,
          title: `${s.headline} - ${s.publisher.name}`,
          url: `https://news.example/${s.id}`,
          published_at: at(3),
        },
        { ...base, title: s.headline.toUpperCase(), url: `${s.url}/amp`, published_at: at(1) },
      );
      if (out.length >= n) return out.slice(0, n);
    }
  }
  if (out.length < n) throw new Error(`the sandbox tells ${out.length} articles, fewer than ${n}`);
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const results = SIZES.map((n) => {
  const articles = corpus(n);
  const times: number[] = [];
  let last = deduplicate(articles, 0.85);
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    last = deduplicate(articles, 0.85);
    times.push(performance.now() - t0);
  }
  return {
    articles: n,
    median_ms: Number(median(times).toFixed(2)),
    kept: last.kept.length,
    dropped_by_url: last.droppedByUrl,
    dropped_by_title: last.droppedByTitle,
    title_comparisons: last.comparisons,
    all_pairs: (n * (n - 1)) / 2,
  };
});

const doc = {
  benchmark: "news de-duplication",
  machine: { cpus: cpus().length, model: cpus()[0]?.model },
  runs: RUNS,
  results,
};
console.log(JSON.stringify(doc, null, 2));
const outAt = process.argv.indexOf("--out");
if (outAt > 0 && process.argv[outAt + 1])
  writeFileSync(process.argv[outAt + 1] as string, `${JSON.stringify(doc, null, 2)}\n`);
