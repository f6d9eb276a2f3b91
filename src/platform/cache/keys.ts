import type { Config } from "../../env";

/**
 * Lifetimes of every cache category (spec: "Cache lifetimes"), in seconds. The one table;
 * `/health` and `/cache/stats` print it as it is.
 */
export function cacheTtls(config: Pick<Config, "NEWS_CACHE_TTL">) {
  return {
    eod: 86_400,
    fundamentals: 3_600,
    fundamentals_deep: 86_400,
    dcf: 21_600,
    insider: 21_600,
    macro: 21_600,
    news: config.NEWS_CACHE_TTL,
    screener: 900,
    technical_daily: 3_600,
    technical_intraday: 60,
    quote: 60,
    stocks_overview: 60,
    health_summary: 3_600,
    /** The delayed provider's search hits of a query (GET /search's part beyond the catalogue). */
    search: 86_400,
  } as const;
}

export type CacheCategory = keyof ReturnType<typeof cacheTtls>;

const up = (ticker: string) => ticker.trim().toUpperCase();

/** Key patterns: one function per category so a key is spelled in one place. */
export const cacheKeys = {
  eod: (ticker: string, variant: string) => `eod:${up(ticker)}:${variant}`,
  /** Every EOD answer of one ticker (POST /cache/clear/{ticker}). */
  eodOfTicker: (ticker: string) => `eod:${up(ticker)}:*`,
  eodAll: () => "eod:*",
  technical: (ticker: string, variant: string) => `technical:${up(ticker)}:${variant}`,
  technicalOfTicker: (ticker: string) => `technical:${up(ticker)}:*`,
  technicalAll: () => "technical:*",
  screener: (variant: string) => `screener:${variant}`,
  /** Every screen: a change of any listing's prices may change any screen's matches. */
  screenerAll: () => "screener:*",
  quote: (ticker: string) => `quote:${up(ticker)}`,
  priceChannel: (ticker: string) => `price:${up(ticker)}`,
  /** v2: the document with its Currencies section (one cached in the earlier layout is not read). */
  fundamentals: (variant: string) => `fundamentals:v2:${variant}`,
  fundamentalsDeep: (variant: string) => `fundamentals_deep:${variant}`,
  etf: (isin: string) => `etf:${isin.toUpperCase()}`,
  /** v2: answers with listing_currency and price_conversion (one cached earlier is not read). */
  dcf: (ticker: string, variant: string) => `dcf:${up(ticker)}:v2:${variant}`,
  /** Every valuation of one ticker (its price or its figures changed). */
  dcfOfTicker: (ticker: string) => `dcf:${up(ticker)}:*`,
  insider: (ticker: string, variant: string) => `insider:${up(ticker)}:${variant}`,
  insiderOfTicker: (ticker: string) => `insider:${up(ticker)}:*`,
  macro: (seriesId: string) => `macro:${seriesId}`,
  /** Set while a window of rates that came back short (not published yet, a currency missing) is not asked again. */
  fxAsked: (currencies: readonly string[], from: string, to: string) =>
    `fx:asked:${currencies.join("+")}:${from}:${to}`,
  /** Set while a window's fallback providers were asked in the last minute (not asked again by every request). */
  fxFallback: (currencies: readonly string[], from: string, to: string) =>
    `fx:fallback:${currencies.join("+")}:${from}:${to}`,
  /** Set while a backfill window is queued (not sent again meanwhile). */
  fxQueued: (currencies: readonly string[], year: number, from: string) =>
    `fx:queued:${currencies.join("+")}:${year}:${from}`,
  /** Every FX marker. */
  fxAll: () => "fx:*",
  news: (ticker: string, variant: string) => `news:${up(ticker)}:${variant}`,
  healthSummary: () => "health:providers",
  /** The delayed provider's hits of a search, by the query as the catalogue reads it (case ignored). */
  search: (text: string) => `search:${text.toLowerCase()}`,
  /** The restore cron's last run (services/realtime/restore), for GET /realtime/status. */
  restoreRun: () => "realtime:restore-run",
  /** Providers resting after failing in a row (src/providers/rest.ts), shared by the isolates. */
  providerRests: () => "providers:resting",
  /** Held while a canary run of `scope` ("all" or a provider) is in progress, whichever isolate runs it. */
  canaryRunning: (scope: string) => `health:canary-running:${scope}`,
  stocksOverview: (tickers: readonly string[]) => `stocks:${tickers.join(",")}`,
  /** Set while a listing's stream-sourced bars have just been asked of the delayed provider again. */
  replacementTried: (listingId: number) => `ingest:replaced:${listingId}`,
  /** The state (unchecked, or which disagreement) a listing's stored span was last asked again for. */
  readjustTried: (listingId: number) => `ingest:readjust:${listingId}`,
  /** Set when the providers answered a range of a listing without a bar. */
  emptyRange: (listingId: number, from: string, to: string) => `ingest:empty:${listingId}:${from}:${to}`,
  /** A session under way whose intraday bars were just fetched (not asked again for a minute). */
  intradayFetched: (listingId: number, interval: string, day: string) =>
    `intraday:fetched:${listingId}:${interval}:${day}`,
} as const;
