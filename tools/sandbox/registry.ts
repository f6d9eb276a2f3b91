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
} from "../../src/domain/provider-names";
import { ECB_SIM_FAULT_KEY } from "./ecb";
import { SIM_SERIES } from "./fred";
import { SIM_SYMBOLS } from "./market-data";
import type { NewsSimProvider } from "./news";

/**
 * The faults every simulated provider must be able to show (the fault matrix crosses them with the
 * providers below): an HTTP 500, no answer in time, a malformed body, an unknown symbol, a 429, and
 * an error carried by an answer that is otherwise a success (HTTP 200, or an accepted WebSocket).
 */
export const FAULT_CLASSES = [
  "http_500",
  "timeout",
  "malformed",
  "unknown_symbol",
  "rate_limited",
  "error_in_200",
] as const;
export type FaultClass = (typeof FAULT_CLASSES)[number];

/**
 * Faults of the transport (tools/sandbox/control.ts), shown alike by every HTTP simulator and set
 * on the probe's symbol: an answer over the service's 16 MiB cap, and a redirect to another host.
 * The fault matrix crosses them with the providers behind an HTTP simulator.
 */
export const TRANSPORT_FAULT_CLASSES = { oversized: "oversized", foreign_redirect: "redirect_foreign" } as const;

/** A simulator's mode for a fault class: set for the probe's symbol, or for every call ("*") when the fault happens before any symbol is known. */
export interface FaultMode {
  mode: string;
  scope: "symbol" | "all";
}

/**
 * A request of the service that reaches the provider, and what routes it there. `answer` says how
 * the request reports the provider: an ingestion's per-ticker results (`ingest`), the rendered
 * document's Providers entry (`document`), the deep document's meta (`deep`: a failing provider
 * leaves the stored figures, `meta.source = "database"`), the insider answer's meta (`insider`:
 * the stored transactions, and a note), or the macro rate's (`macro`: the stored value, none after
 * the reset, and a note), or the FX rates' (`fx`: no rate stored after the reset, so a 503 naming
 * the provider, and the same window answered once it is back), or the news answer (`news`: the other providers' articles, and the
 * failing one named in `errors`).
 */
export interface Probe {
  method: "POST" | "GET";
  path: string;
  body?: unknown;
  answer: "ingest" | "document" | "deep" | "insider" | "macro" | "fx" | "news";
  /** The catalogue ticker the probe asks for (its stored state is reset around each case); none for the macro rate. */
  ticker?: string;
  /**
   * A request sent before the faults are set, so that the probe reaches the provider where the
   * faults are meant to hit (e.g. the symbol verified, so the probe goes straight to quoteSummary).
   */
  warmUp?: { method: "POST" | "GET"; path: string; body?: unknown };
  /** Faults of other simulators that send the request to this provider (a fallback). */
  alsoFault?: { simulator: SimulatedProvider["simulator"]; symbol: string; mode: string }[];
}

export interface SimulatedProvider {
  /** The service's name of the provider (src/domain/provider-names.ts). */
  provider: string;
  /** Where the simulator's control endpoint is announced to the tests (test/helpers/global-setup.ts). */
  simulator:
    | "delayedSimUrl"
    | "streamSimUrl"
    | "scrapedSimUrl"
    | "edgarSimUrl"
    | "fredSimUrl"
    | "ecbSimUrl"
    | "newsSimUrl";
  /** The provider's own symbol of the probe's ticker (what a per-symbol fault is set on). */
  symbol: string;
  faults: Record<FaultClass, FaultMode>;
  probe: Probe;
}

const PROBE_TICKER = "ALV.DE";
const probeSymbol = [...SIM_SYMBOLS.values()].find((s) => s.symbol === PROBE_TICKER);
if (!probeSymbol) throw new Error(`the sandbox does not simulate ${PROBE_TICKER}`);

/** A month's ingestion of the probe ticker: the request that reaches both history providers. */
const INGEST_PROBE: Probe = {
  method: "POST",
  path: "/historical/ingest",
  body: { tickers: [PROBE_TICKER], period: "1mo" },
  answer: "ingest",
  ticker: PROBE_TICKER,
};

/**
 * Faults of the HTTP simulators (the delayed provider's, the scraped pages'), which share their mode
 * names, set on the probe's symbol or page.
 */
const HTTP_FAULTS: Record<FaultClass, FaultMode> = {
  http_500: { mode: "500", scope: "symbol" },
  timeout: { mode: "timeout", scope: "symbol" },
  malformed: { mode: "malformed", scope: "symbol" },
  unknown_symbol: { mode: "unknown", scope: "symbol" },
  rate_limited: { mode: "ratelimit", scope: "symbol" },
  error_in_200: { mode: "error200", scope: "symbol" },
};

/** The rendered document asked of one scraped provider only, built anew. */
const documentProbe = (ticker: string, provider: string): Probe => ({
  method: "GET",
  path: `/fundamental?ticker=${encodeURIComponent(ticker)}&provider=${provider}&nocache=true`,
  answer: "document",
  ticker,
});

/** Every provider the sandbox simulates. A provider added to the sandbox adds its entry here. */
export const SIMULATED_PROVIDERS: readonly SimulatedProvider[] = [
  {
    provider: DELAYED,
    simulator: "delayedSimUrl",
    symbol: probeSymbol.symbol,
    faults: HTTP_FAULTS,
    probe: INGEST_PROBE,
  },
  {
    provider: STREAM,
    simulator: "streamSimUrl",
    symbol: probeSymbol.streamSymbol,
    faults: {
      http_500: { mode: "http_500", scope: "all" },
      timeout: { mode: "silent", scope: "symbol" },
      malformed: { mode: "malformed", scope: "symbol" },
      unknown_symbol: { mode: "symbol_error", scope: "symbol" },
      rate_limited: { mode: "http_429", scope: "all" },
      error_in_200: { mode: "protocol_error", scope: "symbol" },
    },
    // The service asks the stream provider for history when the delayed provider fails.
    probe: {
      ...INGEST_PROBE,
      alsoFault: [{ simulator: "delayedSimUrl", symbol: probeSymbol.symbol, mode: "500" }],
    },
  },
  {
    // The delayed provider's fundamentals (quoteSummary and fundamentals-timeseries, through the
    // cookie/crumb handshake): the deep enrichment.
    provider: DELAYED,
    simulator: "delayedSimUrl",
    symbol: probeSymbol.symbol,
    faults: HTTP_FAULTS,
    probe: {
      method: "GET",
      path: `/fundamental/deep?ticker=${PROBE_TICKER}&refresh=true`,
      answer: "deep",
      ticker: PROBE_TICKER,
      // An ingestion verifies the listing's symbol first: the faults then hit the fundamentals calls.
      warmUp: { method: INGEST_PROBE.method, path: INGEST_PROBE.path, body: INGEST_PROBE.body },
    },
  },
  {
    provider: SCRAPED_BUSINESSINSIDER,
    simulator: "scrapedSimUrl",
    // Pages are found by the site's search, then read at /stocks/<slug>-stock: the fault is on the page.
    symbol: "jpm",
    faults: HTTP_FAULTS,
    probe: documentProbe("JPM", SCRAPED_BUSINESSINSIDER),
  },
  {
    provider: SCRAPED_ONVISTA,
    simulator: "scrapedSimUrl",
    symbol: "DE0008404005",
    faults: HTTP_FAULTS,
    probe: documentProbe("ALV.DE", SCRAPED_ONVISTA),
  },
  {
    // EDGAR's faults are set on the registrant's CIK: its submissions and its filings.
    provider: EDGAR,
    simulator: "edgarSimUrl",
    symbol: "19617",
    faults: HTTP_FAULTS,
    probe: { method: "GET", path: "/insider-transactions/JPM?limit=5", answer: "insider", ticker: "JPM" },
  },
  {
    // The macro provider: the risk-free rate, its faults on the series.
    provider: MACRO,
    simulator: "fredSimUrl",
    symbol: SIM_SERIES,
    faults: HTTP_FAULTS,
    probe: { method: "GET", path: "/macro/rates", answer: "macro" },
  },
  {
    // The ECB: a month of EUR/USD of a past year, fetched from its data API (the fault on the series EXR).
    provider: ECB,
    simulator: "ecbSimUrl",
    symbol: ECB_SIM_FAULT_KEY,
    faults: HTTP_FAULTS,
    probe: { method: "GET", path: "/fx/EUR/USD?from=2025-03-03&to=2025-04-01", answer: "fx" },
  },
  ...newsEntries(),
];

/** The seven news providers, their faults set on `<provider>:<ticker>` of the news simulator. */
function newsEntries(): SimulatedProvider[] {
  const ticker = "JPM";
  const providers: [string, NewsSimProvider][] = [
    [NEWS_YAHOO, "yahoo"],
    [NEWS_GOOGLE, "google"],
    [NEWS_FINNHUB, "finnhub"],
    [NEWS_MARKETAUX, "marketaux"],
    [NEWS_NEWSAPI, "newsapi"],
    [NEWS_ALPHAVANTAGE, "alphavantage"],
    [NEWS_GDELT, "gdelt"],
  ];
  return providers.map(([provider, sim]) => ({
    provider,
    simulator: "newsSimUrl",
    symbol: `${sim}:${ticker}`,
    faults: HTTP_FAULTS,
    probe: { method: "GET", path: `/news/${ticker}?limit=10&force_refresh=true`, answer: "news", ticker },
  }));
}
