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
/** An article is compared with the kept articles that contain one of its rarest tokens. */
const RARE_TOKENS = 3;
/** At most this many kept articles are looked at per token: a token in more says little, and costs much. */
const POSTING_CAP = 64;

export interface DedupResult<T> {
  kept: T[];
  /** How many were dropped as the same URL, and as a similar title. */
  droppedByUrl: number;
  droppedByTitle: number;
  /** Title comparisons made (what the blocking saves: n(n-1)/2 without it). */
  comparisons: number;
}

export interface DuplicateGroups {
  /** Each group of the same news: indices into the input, ascending. */
  groups: number[][];
  /** Per group, the article kept for it: the most recent of the first-received of each URL. */
  kept: number[];
  comparisons: number;
}

const tokensOf = (key: string) => [...new Set(key.split(" ").filter((w) => w.length > 1 && !STOP.has(w)))];

/**
 * Groups articles that are the same news. First the URL rule: of one normalised URL the first
 * received stands for the others. Then the titles, newest first: an article joins the group of a
 * kept article whose title is similar at or above `threshold`, else it is kept itself. So every
 * article dropped is that similar to the one kept for it (no chains through intermediate titles),
 * and the one kept is the most recent. An article is only compared with kept articles that share
 * one of its three rarest tokens (at most POSTING_CAP of them per token) and whose length allows
 * the threshold, so 2,000 articles cost thousands of comparisons, not two million.
 */
export function duplicateGroups(articles: readonly NewsArticle[], threshold: number): DuplicateGroups {
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
  // Newest first; between equals, the first received.
  const order = [...firstOfUrl.values()].sort((x, y) => {
    const a = (articles[x] as NewsArticle).published_at;
    const b = (articles[y] as NewsArticle).published_at;
    return a < b ? 1 : a > b ? -1 : x - y;
  });
  const keys = new Map(
    order.map((i) => [i, titleKey((articles[i] as NewsArticle).title, (articles[i] as NewsArticle).source)]),
  );
  const tokens = new Map(order.map((i) => [i, tokensOf(keys.get(i) as string)]));
  const frequency = new Map<string, number>();
  for (const ts of tokens.values()) for (const t of ts) frequency.set(t, (frequency.get(t) ?? 0) + 1);

  const postings = new Map<string, number[]>();
  const groupOf = new Map<number, number[]>();
  const kept: number[] = [];
  let comparisons = 0;
  const maxGap = 1 - threshold;
  for (const i of order) {
    const a = keys.get(i) as string;
    const ts = tokens.get(i) as string[];
    const rarest = [...ts]
      .sort((x, y) => (frequency.get(x) ?? 0) - (frequency.get(y) ?? 0) || (x < y ? -1 : 1))
      .slice(0, RARE_TOKENS);
    let leader: number | undefined;
    const seen = new Set<number>();
    for (const t of rarest) {
      for (const k of postings.get(t) ?? []) {
        if (seen.has(k)) continue;
        seen.add(k);
        const b = keys.get(k) as string;
        // The distance is at least the difference in length: a pair too far apart cannot reach the threshold.
        if (Math.abs(a.length - b.length) > maxGap * Math.max(a.length, b.length)) continue;
        comparisons++;
        if (titleSimilarity(a, b) >= threshold) {
          leader = k;
          break;
        }
      }
      if (leader !== undefined) break;
    }
    const members = sameUrl.get(i) ?? [i];
    if (leader !== undefined) {
      groupOf.get(leader)?.push(...members);
      continue;
    }
    kept.push(i);
    groupOf.set(i, [...members]);
    for (const t of ts) {
      const list = postings.get(t);
      if (!list) postings.set(t, [i]);
      else if (list.length < POSTING_CAP) list.push(i);
    }
  }
  return { groups: kept.map((k) => (groupOf.get(k) ?? [k]).sort((x, y) => x - y)), kept, comparisons };
}

/**
 * De-duplicates articles (spec News rules 3-5): of one normalised URL the first received is kept;
 * of similar titles the most recent (the group's related tickers joined on it). Answers the kept
 * articles newest first.
 */
export function deduplicate<T extends NewsArticle>(articles: readonly T[], threshold: number): DedupResult<T> {
  const { groups, kept, comparisons } = duplicateGroups(articles, threshold);
  const out = kept.map((k, g) => {
    const tickers = new Set((groups[g] ?? []).flatMap((m) => (articles[m] as T).related_tickers));
    return { ...(articles[k] as T), related_tickers: [...tickers].sort() };
  });
  const urlUnique = new Set(articles.map((a) => urlKey(a.url))).size;
  return { kept: out, droppedByUrl: articles.length - urlUnique, droppedByTitle: urlUnique - out.length, comparisons };
}
