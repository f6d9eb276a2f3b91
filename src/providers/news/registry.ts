import type { Clock, Deadline } from "../../clock";
import type { DriftSink } from "../../domain/drift";
import type { Config } from "../../env";
import { restPolicyOf } from "../rest";
import { AlphaVantageNews } from "./alphavantage";
import type { NewsProvider } from "./client";
import { FinnhubNews } from "./finnhub";
import { GdeltNews } from "./gdelt";
import { MarketauxNews } from "./marketaux";
import { NewsApiNews } from "./newsapi";
import { GoogleRssNews, YahooRssNews } from "./rss";

/** The seven news providers, aimed at their configured addresses with their keys. */
export function newsProviders(config: Config, deadline: Deadline, clock: Clock, drifts?: DriftSink): NewsProvider[] {
  const common = { timeoutMs: config.PROVIDER_TIMEOUT_MS, deadline, clock, drifts, restPolicy: restPolicyOf(config) };
  return [
    new YahooRssNews({ ...common, baseUrl: config.NEWS_YAHOO_RSS_BASE_URL }),
    new GoogleRssNews({ ...common, baseUrl: config.NEWS_GOOGLE_RSS_BASE_URL }),
    new FinnhubNews({ ...common, baseUrl: config.NEWS_FINNHUB_BASE_URL, key: config.FINNHUB_API_KEY }),
    new MarketauxNews({ ...common, baseUrl: config.NEWS_MARKETAUX_BASE_URL, key: config.MARKETAUX_API_KEY }),
    new NewsApiNews({ ...common, baseUrl: config.NEWS_NEWSAPI_BASE_URL, key: config.NEWSAPI_API_KEY }),
    new AlphaVantageNews({ ...common, baseUrl: config.NEWS_ALPHAVANTAGE_BASE_URL, key: config.ALPHAVANTAGE_API_KEY }),
    new GdeltNews({ ...common, baseUrl: config.NEWS_GDELT_BASE_URL }),
  ];
}
