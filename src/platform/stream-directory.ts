import type { ClientKind, RealtimeTick, Refusal, StartOutcome, StreamStatus } from "../domain/realtime";
import type { Bindings } from "../env";
import { registryOf } from "./stream-registry-stub";

/** The realtime streams as the services see them: one Durable Object per ticker (upper-cased by the parameter schemas), and their registry. */
export interface StreamDirectory {
  /** Starts the ticker's stream; waits at most `waitMs` to learn whether the provider takes the symbol. */
  start(ticker: string, waitMs?: number): Promise<StartOutcome>;
  stop(ticker: string): Promise<void>;
  status(ticker: string): Promise<StreamStatus>;
  /** The ticker's last tick if streamed and fresh, asked of its object (where no shared cache holds it). */
  lastFreshTick(ticker: string): Promise<RealtimeTick | null>;
  /** Tickers being streamed. */
  list(): Promise<string[]>;
  /** Whether one ticker is streamed (its object is not asked, nor created). */
  isStreamed(ticker: string): Promise<boolean>;
  /** The stream provider's refusals of the day before `now` (epoch ms). */
  refusals(now: number): Promise<Refusal[]>;
  /** Hands a client's WebSocket upgrade to the ticker's stream. */
  /** `client`: the key's fingerprint, so the ticker's object can bound the sockets of one key. */
  connect(request: Request, ticker: string, kind: ClientKind, client: string): Promise<Response>;
}

/** The directory over the Worker's Durable Object bindings; null where they are absent (plain unit tests). */
export function streamDirectory(env: Bindings): StreamDirectory | null {
  const streams = env.TICKER_STREAM;
  const registryNs = env.STREAM_REGISTRY;
  if (!streams || !registryNs) return null;
  const stub = (ticker: string) => streams.get(streams.idFromName(ticker));
  const registry = () => registryOf(registryNs);
  return {
    start: async (t, waitMs) => {
      // Plain data out of the RPC result (its stubs are disposable).
      const o = await stub(t).start(t, waitMs ?? 0);
      return o.state === "refused" ? { state: "refused", reason: o.reason } : { state: o.state };
    },
    stop: (t) => stub(t).stop(),
    status: (t) => stub(t).status(),
    lastFreshTick: (t) => stub(t).lastFreshTick(),
    list: () => registry().list(),
    isStreamed: (t) => registry().has(t),
    refusals: async (now) =>
      (await registry().refusals(now)).map((r) => ({ ticker: r.ticker, reason: r.reason, at: r.at })),
    connect: (request, t, kind, client) => {
      const url = new URL(request.url);
      // Set here, over anything the client put in its query.
      url.searchParams.set("ticker", t);
      url.searchParams.set("kind", kind);
      url.searchParams.set("client", client);
      return stub(t).fetch(new Request(url.toString(), request));
    },
  };
}
