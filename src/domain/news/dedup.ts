import { distance } from "fastest-levenshtein";
import type { NewsArticle } from "./article";
import { titleKey, urlKey } from "./normalise";

/** Similarity of two titles: 1 - Levenshtein distance / the longer length (1 = identical). */
export function titleSimilarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - distance(a, b) / longest;
}

/** Words too common in headlines to say two titles are about the same thing. */
const STOP = new Set(
  "the a an of to in on for and or with as at by from is are was its it after over new says said says le la les de des du un une et en pour sur au aux der die das und im mit von zu für auf ist".split(
    " ",
  ),
);
/** Each title is compared with those that share one of its rarest tokens. */
const RARE_TOKENS = 3;

export interface DedupResult<T> {
  kept: T[];
  /** How many were dropped as the same URL, and as a similar title. */
  droppedByUrl: number;
  droppedByTitle: number;
  /** Title comparisons made (what the blocking saves: n(n-1)/2 without it). */
  comparisons: number;
}

export interface DuplicateGroups {
  /** Each group of the same news: indices into the input, the first received first. */
  groups: number[][];
  /** Per group, the index of the article that stands for it after the URL rule (the first received of its URL). */
  urlFirsts: number[][];
  comparisons: number;
}

/**
 * Groups articles that are the same news: the same normalised URL, or titles similar at or above
 * `threshold` (transitively). Titles are only compared when one's rarest tokens occur in the other
 * and their lengths allow the threshold, so 2,000 articles cost thousands of comparisons, not two
 * million.
 */
export function duplicateGroups(articles: readonly NewsArticle[], threshold: number): DuplicateGroups {
  // The URL rule: each URL's first received article stands for the others.
  const firstOfUrl = new Map<string, number>();
  const sameUrl = new Map<number, number[]>();
  articles.forEach((a, i) => {
    const key = urlKey(a.url);
    const first = firstOfUrl.get(key);
    if (first === undefined) {
      firstOfUrl.set(key, i);
      sameUrl.set(i, [i]);
    } else sameUrl.get(first)?.push(i);
  });
  const items = [...firstOfUrl.values()];
  const keys = items.map((i) => titleKey((articles[i] as NewsArticle).title, (articles[i] as NewsArticle).source));
  const tokens = keys.map((k) => [...new Set(k.split(" ").filter((w) => w.length > 1 && !STOP.has(w)))]);

  const frequency = new Map<string, number>();
  for (const ts of tokens) for (const t of ts) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  const postings = new Map<string, number[]>();
  tokens.forEach((ts, i) => {
    const rarest = [...ts]
      .sort((x, y) => (frequency.get(x) ?? 0) - (frequency.get(y) ?? 0) || (x < y ? -1 : 1))
      .slice(0, RARE_TOKENS);
    for (const t of rarest) postings.set(t, [...(postings.get(t) ?? []), i]);
  });

  // Union-find over the pairs found similar.
  const parent = items.map((_, i) => i);
  const root = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r] as number;
    parent[i] = r;
    return r;
  };
  let comparisons = 0;
  const maxGap = 1 - threshold;
  for (let i = 0; i < items.length; i++) {
    const candidates = new Set<number>();
    for (const t of tokens[i] ?? []) for (const j of postings.get(t) ?? []) if (j !== i) candidates.add(j);
    const a = keys[i] as string;
    for (const j of candidates) {
      const b = keys[j] as string;
      // The distance is at least the difference in length: a pair too far apart cannot reach the threshold.
      if (Math.abs(a.length - b.length) > maxGap * Math.max(a.length, b.length)) continue;
      if (root(i) === root(j)) continue;
      comparisons++;
      if (titleSimilarity(a, b) >= threshold) parent[Math.max(root(i), root(j))] = Math.min(root(i), root(j));
    }
  }
  const byRoot = new Map<number, number[]>();
  items.forEach((_, i) => {
    const r = root(i);
    byRoot.set(r, [...(byRoot.get(r) ?? []), i]);
  });
  const urlFirsts = [...byRoot.values()].map((members) => members.map((m) => items[m] as number));
  const groups = urlFirsts.map((firsts) => firsts.flatMap((f) => sameUrl.get(f) ?? [f]).sort((x, y) => x - y));
  return { groups, urlFirsts, comparisons };
}

/**
 * De-duplicates articles (spec News rules 3-5): of one normalised URL the first received is kept;
 * of similar titles the most recent (the group's related tickers joined on it). Answers the kept
 * articles newest first.
 */
export function deduplicate<T extends NewsArticle>(articles: readonly T[], threshold: number): DedupResult<T> {
  const { urlFirsts, groups, comparisons } = duplicateGroups(articles, threshold);
  const kept: T[] = urlFirsts.map((firsts, g) => {
    // The most recent of the URL-firsts; between equals, the first received.
    const best = firsts.reduce((x, y) => ((articles[y] as T).published_at > (articles[x] as T).published_at ? y : x));
    const tickers = new Set((groups[g] ?? []).flatMap((m) => (articles[m] as T).related_tickers));
    return { ...(articles[best] as T), related_tickers: [...tickers].sort() };
  });
  kept.sort((x, y) => (x.published_at < y.published_at ? 1 : x.published_at > y.published_at ? -1 : 0));
  const urlUnique = urlFirsts.reduce((n, f) => n + f.length, 0);
  return { kept, droppedByUrl: articles.length - urlUnique, droppedByTitle: urlUnique - kept.length, comparisons };
}
