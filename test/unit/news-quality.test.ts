import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { NewsArticle } from "../../src/domain/news/article";
import { duplicateGroups } from "../../src/domain/news/dedup";

/**
 * The de-duplication's quality figure on the labelled set (test/fixtures/news/labelled.json, made
 * by `npm run news:labelled`): 588 articles of six tickers from the seven simulated providers, each
 * labelled with the story it tells. Over all pairs of articles of a ticker, precision = pairs
 * grouped that are the same story / pairs grouped, recall = same-story pairs grouped / same-story pairs.
 */
interface Labelled extends NewsArticle {
  story: string;
}
const fixture = JSON.parse(readFileSync(new URL("../fixtures/news/labelled.json", import.meta.url), "utf8")) as {
  articles: number;
  sets: { ticker: string; articles: Labelled[] }[];
};

function pairsOf(groups: number[][]): Set<string> {
  const out = new Set<string>();
  for (const g of groups)
    for (let i = 0; i < g.length; i++) for (let j = i + 1; j < g.length; j++) out.add(`${g[i]}:${g[j]}`);
  return out;
}

describe("de-duplication quality on the labelled set", () => {
  it("finds the same stories with precision and recall of at least 0.95", () => {
    expect(fixture.articles).toBeGreaterThanOrEqual(200);
    let truePairs = 0;
    let predicted = 0;
    let correct = 0;
    for (const set of fixture.sets) {
      const byStory = new Map<string, number[]>();
      for (const [i, a] of set.articles.entries()) byStory.set(a.story, [...(byStory.get(a.story) ?? []), i]);
      const truth = pairsOf([...byStory.values()]);
      const found = pairsOf(duplicateGroups(set.articles, 0.85).groups);
      truePairs += truth.size;
      predicted += found.size;
      for (const p of found) if (truth.has(p)) correct += 1;
    }
    const precision = correct / predicted;
    const recall = correct / truePairs;
    console.log(
      `news de-duplication on ${fixture.articles} labelled articles: precision ${precision.toFixed(4)}, recall ${recall.toFixed(4)} (${correct} of ${truePairs} same-story pairs found, ${predicted - correct} wrong)`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.95);
    expect(recall).toBeGreaterThanOrEqual(0.95);
  });
});
