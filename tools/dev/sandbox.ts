import { pinnedClock, systemClock } from "../../src/clock";
import { startEcbSim } from "../sandbox/ecb";
import { startEdgarSim } from "../sandbox/edgar";
import { FRED_SIM_KEY, startFredSim } from "../sandbox/fred";
import { newsSimSettings, startNewsSim } from "../sandbox/news";
import { startScrapedPagesSim } from "../sandbox/scraped-pages";
import { startTradingViewSim, type TradingViewSimOptions } from "../sandbox/tradingview";
import { startYahooSim } from "../sandbox/yahoo";

/** The provider simulators of `npm run dev:sandbox`, and the Worker settings that aim at them. */
export interface Sandbox {
  vars: Record<string, string>;
  /** Control endpoints (faults, stream actions) of the delayed and the stream simulators. */
  control: { delayed: string; stream: string; scraped: string; edgar: string; fred: string; ecb: string; news: string };
  label: string;
  stop(): Promise<void>;
}

/**
 * Ports are fixed by SANDBOX_*_PORT when set (to reach the fault endpoints by a known address), else
 * free ones. CLOCK_PINNED_AT pins the simulators and the Worker at one instant together.
 */
export async function startSandbox(
  env: Record<string, string | undefined> = process.env,
  stream: Pick<TradingViewSimOptions, "onUpdate"> = {},
): Promise<Sandbox> {
  const pinned = env.CLOCK_PINNED_AT?.trim();
  const clock = pinned ? pinnedClock(pinned) : systemClock;
  const yahoo = await startYahooSim({ port: Number(env.SANDBOX_DELAYED_PORT ?? 0), clock });
  // One 1-minute bar update a second by default (SANDBOX_STREAM_TICK_MS changes the pace).
  const tradingView = await startTradingViewSim({
    port: Number(env.SANDBOX_STREAM_PORT ?? 0),
    tickMs: Number(env.SANDBOX_STREAM_TICK_MS ?? 1000),
    clock,
    ...stream,
  });
  const scraped = await startScrapedPagesSim({ port: Number(env.SANDBOX_SCRAPED_PORT ?? 0) });
  const edgar = await startEdgarSim({ port: Number(env.SANDBOX_EDGAR_PORT ?? 0) });
  const fred = await startFredSim({ port: Number(env.SANDBOX_MACRO_PORT ?? 0), clock });
  const news = await startNewsSim({ port: Number(env.SANDBOX_NEWS_PORT ?? 0), clock });
  const ecb = await startEcbSim({ port: Number(env.SANDBOX_ECB_PORT ?? 0), clock });
  return {
    vars: {
      DELAYED_PROVIDER_BASE_URL: yahoo.url,
      STREAM_PROVIDER_WS_URL: tradingView.wsUrl,
      SCRAPED_BUSINESSINSIDER_BASE_URL: scraped.url,
      SCRAPED_ONVISTA_BASE_URL: scraped.url,
      SEC_BASE_URL: edgar.url,
      SEC_DATA_BASE_URL: edgar.url,
      SEC_USER_AGENT: "market-data-service sandbox@example.com",
      MACRO_PROVIDER_BASE_URL: fred.url,
      MACRO_API_KEY: FRED_SIM_KEY,
      ECB_BASE_URL: ecb.url,
      ECB_DATA_API_BASE_URL: ecb.url,
      ...newsSimSettings(news.url),
      // The simulators have no limits: the catalogue refresh may ask them 100 times a second.
      REFRESH_REQUESTS_PER_MINUTE: "6000",
      ...(pinned ? { CLOCK_PINNED_AT: pinned } : {}),
    },
    control: {
      delayed: yahoo.url,
      stream: tradingView.url,
      scraped: scraped.url,
      edgar: edgar.url,
      fred: fred.url,
      ecb: ecb.url,
      news: news.url,
    },
    label: `simulators (delayed ${yahoo.url}, stream ${tradingView.wsUrl}, scraped pages ${scraped.url}, EDGAR ${edgar.url}, macro ${fred.url}, ECB ${ecb.url}, news ${news.url}; faults: POST {url}/__sandbox/faults)`,
    stop: async () => {
      await Promise.all([
        yahoo.close(),
        tradingView.close(),
        scraped.close(),
        edgar.close(),
        fred.close(),
        ecb.close(),
        news.close(),
      ]);
    },
  };
}
