import {
  DELAYED,
  ECB,
  EDGAR,
  MACRO,
  NEWS_ALPHAVANTAGE,
  NEWS_FINNHUB,
  NEWS_GDELT,
  NEWS_GOOGLE,
  NEWS_MARKETAUX,
  NEWS_NEWSAPI,
  NEWS_YAHOO,
  SCRAPED_BUSINESSINSIDER,
  SCRAPED_ONVISTA,
  STREAM,
} from "../domain/provider-names";

/**
 * The registry of external data providers. Each entry loads its client module lazily; an entry
 * whose module fails to load (missing dependency) is reported in `/health` as unavailable.
 * Provider issues add their entries to `PROVIDERS`.
 */
export type ProviderKind = "delayed" | "stream" | "macro" | "fx" | "news" | "scraped" | "filings";

export interface ProviderEntry {
  /** Source identifier, e.g. `delayed_provider`. */
  name: string;
  kind: ProviderKind;
  load: () => Promise<unknown>;
}

export const PROVIDERS: readonly ProviderEntry[] = [
  { name: DELAYED, kind: "delayed", load: () => import("./delayed/client") },
  { name: STREAM, kind: "stream", load: () => import("./stream/client") },
  { name: SCRAPED_BUSINESSINSIDER, kind: "scraped", load: () => import("./scraped/businessinsider") },
  { name: SCRAPED_ONVISTA, kind: "scraped", load: () => import("./scraped/onvista") },
  { name: EDGAR, kind: "filings", load: () => import("./sec/edgar") },
  { name: MACRO, kind: "macro", load: () => import("./macro/fred") },
  { name: ECB, kind: "fx", load: () => import("./fx/ecb") },
  { name: NEWS_YAHOO, kind: "news", load: () => import("./news/rss") },
  { name: NEWS_GOOGLE, kind: "news", load: () => import("./news/rss") },
  { name: NEWS_FINNHUB, kind: "news", load: () => import("./news/finnhub") },
  { name: NEWS_MARKETAUX, kind: "news", load: () => import("./news/marketaux") },
  { name: NEWS_NEWSAPI, kind: "news", load: () => import("./news/newsapi") },
  { name: NEWS_ALPHAVANTAGE, kind: "news", load: () => import("./news/alphavantage") },
  { name: NEWS_GDELT, kind: "news", load: () => import("./news/gdelt") },
];

export interface ProviderStatus {
  loaded: string[];
  unavailable: string[];
}

let status: Promise<ProviderStatus> | undefined;

export async function loadProviders(entries: readonly ProviderEntry[]): Promise<ProviderStatus> {
  const results = await Promise.allSettled(entries.map((e) => e.load()));
  const out: ProviderStatus = { loaded: [], unavailable: [] };
  results.forEach((r, i) => {
    const name = entries[i]?.name ?? "unknown";
    if (r.status === "fulfilled") out.loaded.push(name);
    else {
      console.warn("provider unavailable", name, String(r.reason));
      out.unavailable.push(name);
    }
  });
  return out;
}

/** Loaded once per isolate. */
export function providerStatus(): Promise<ProviderStatus> {
  status ??= loadProviders(PROVIDERS);
  return status;
}
