import type { ClientKind, RealtimeTick, Refusal, StartOutcome, StreamStatus } from "../domain/realtime";
import { TICKET_PARAM } from "../domain/realtime-ticket";
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
  /**
   * Hands a client's WebSocket upgrade to the ticker's stream, with its key's kind and fingerprint
   * (`client`: what the key's socket cap counts by), or with a ticket the ticker's object issued.
   */
  connect(
    request: Request,
    ticker: string,
    holder: { kind: ClientKind; client: string } | { ticket: string },
  ): Promise<Response>;
  /** Has the ticker's object keep a sealed single-use ticket for a key: its expiry, null when the key holds too many unspent. */
  keepTicket(ticker: string, ticket: string, kind: ClientKind, client: string): Promise<string | null>;
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
    connect: (request, t, holder) => {
      // Only what is set here reaches the object, never what else the client put in its query.
      const url = new URL(request.url);
      url.search = "";
      url.searchParams.set("ticker", t);
      if ("ticket" in holder) url.searchParams.set(TICKET_PARAM, holder.ticket);
      else {
        url.searchParams.set("kind", holder.kind);
        url.searchParams.set("client", holder.client);
      }
      return stub(t).fetch(new Request(url.toString(), request));
    },
    keepTicket: (t, ticket, kind, client) => stub(t).keepTicket(ticket, kind, client),
  };
}
