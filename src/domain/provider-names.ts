/**
 * The source identifier of each provider: what `data_source`, `source`, provider errors and the
 * health report say. The one place they are spelled.
 */
export const DELAYED = "delayed_provider";
export const STREAM = "stream_provider";
/** Web pages read for trailing P/E, EPS and dividend yield (spec /fundamental rule 1c). */
export const SCRAPED_BUSINESSINSIDER = "scraped_businessinsider";
export const SCRAPED_ONVISTA = "scraped_onvista";
/**
 * The fundamentals providers (GET /fundamental's `provider`), in the order of precedence of their
 * figures; the ones the canary watches.
 */
export const FUNDAMENTAL_PROVIDERS = [DELAYED, SCRAPED_BUSINESSINSIDER, SCRAPED_ONVISTA] as const;
export type FundamentalProvider = (typeof FUNDAMENTAL_PROVIDERS)[number];
export const isFundamentalProvider = (name: string): name is FundamentalProvider =>
  (FUNDAMENTAL_PROVIDERS as readonly string[]).includes(name);

/** The ECB's euro reference rates (daily FX). */
export const ECB = "ecb_reference_rates";

/** The providers the canary watches: the fundamentals providers, and the ECB's daily file (in a run of all). */
export const CANARY_PROVIDERS = [...FUNDAMENTAL_PROVIDERS, ECB] as const;
export const isCanaryProvider = (name: string): boolean => (CANARY_PROVIDERS as readonly string[]).includes(name);

/** SEC EDGAR (insider transactions, Form 4). */
export const EDGAR = "sec_edgar";

/** The macro provider (FRED): the 10-year Treasury yield, the valuation's risk-free rate. */
export const MACRO = "macro_provider";

/** The seven news providers (GET /news/{ticker}). */
export const NEWS_YAHOO = "yahoo_finance_rss";
export const NEWS_GOOGLE = "google_news_rss";
export const NEWS_FINNHUB = "finnhub";
export const NEWS_MARKETAUX = "marketaux";
export const NEWS_NEWSAPI = "newsapi";
export const NEWS_ALPHAVANTAGE = "alpha_vantage";
export const NEWS_GDELT = "gdelt";

/** The price providers (a quote's or a bar's source). */
export type ProviderName = typeof DELAYED | typeof STREAM;
