import { DELAYED, STREAM } from "../../src/providers/names";
import { SIM_SYMBOLS } from "./market-data";

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

/** A simulator's mode for a fault class: set for the probe's symbol, or for every call ("*") when the fault happens before any symbol is known. */
export interface FaultMode {
  mode: string;
  scope: "symbol" | "all";
}

/** A request of the service that reaches the provider, and what routes it there. */
export interface Probe {
  method: "POST";
  path: string;
  body: unknown;
  /** The catalogue ticker the probe asks for (its stored state is reset around each case). */
  ticker: string;
  /** Faults of other simulators that send the request to this provider (a fallback). */
  alsoFault?: { simulator: SimulatedProvider["simulator"]; symbol: string; mode: string }[];
}

export interface SimulatedProvider {
  /** The service's name of the provider (src/providers/names.ts). */
  provider: string;
  /** Where the simulator's control endpoint is announced to the tests (test/helpers/global-setup.ts). */
  simulator: "delayedSimUrl" | "streamSimUrl";
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
  ticker: PROBE_TICKER,
};

/** Every provider the sandbox simulates. A provider added to the sandbox adds its entry here. */
export const SIMULATED_PROVIDERS: readonly SimulatedProvider[] = [
  {
    provider: DELAYED,
    simulator: "delayedSimUrl",
    symbol: probeSymbol.symbol,
    faults: {
      http_500: { mode: "500", scope: "symbol" },
      timeout: { mode: "timeout", scope: "symbol" },
      malformed: { mode: "malformed", scope: "symbol" },
      unknown_symbol: { mode: "unknown", scope: "symbol" },
      rate_limited: { mode: "ratelimit", scope: "symbol" },
      error_in_200: { mode: "error200", scope: "symbol" },
    },
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
];
