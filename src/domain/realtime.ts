import { backoff } from "./backoff";
import { toDecimalString } from "./decimal";
import { isoInstant } from "./instants";
import { STREAM } from "./provider-names";

/** The spec's Realtime tick: one 1-minute bar update of a streamed ticker. */
export interface RealtimeTick {
  ticker: string;
  timestamp: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: number;
  source: typeof STREAM;
  exchange: null;
  currency: null;
}

/** A stream-provider bar (epoch seconds of the minute start) as a tick; prices as decimal strings. */
export function tickOfBar(
  ticker: string,
  bar: { time: number; open: number; high: number; low: number; close: number; volume: number },
): RealtimeTick {
  return {
    ticker,
    timestamp: isoInstant(new Date(bar.time * 1000)),
    open: toDecimalString(bar.open, 8),
    high: toDecimalString(bar.high, 8),
    low: toDecimalString(bar.low, 8),
    close: toDecimalString(bar.close, 8),
    volume: bar.volume,
    source: STREAM,
    exchange: null,
    currency: null,
  };
}

export type ServerMessageType = "not_streaming" | "snapshot" | "tick" | "error";

/** A server message: `{type, ticker, data, error, ts}` (pong is the exception, sent as exactly `{"type":"pong"}`). */
export function serverMessage(
  type: ServerMessageType,
  ticker: string,
  data: RealtimeTick | null,
  error: string | null,
  now: Date,
): string {
  return JSON.stringify({ type, ticker, data, error, ts: now.toISOString() });
}

export const PONG = '{"type":"pong"}';

/**
 * What a read-only client of a ticker that is not streamed is told (the `not_streaming` message's
 * error, then the close's reason): it cannot start a stream, and the socket is closed, not kept open
 * on a ticker with nothing to send.
 */
export const notStreamingText = (ticker: string) =>
  `${ticker} is not streamed; a read-only key cannot start a stream (subscribe with a full-access key)`;
export const NOT_STREAMING_CLOSE = { code: 1000, reason: "not streamed" } as const;

/** Backoff before reconnect attempt `n` (1-based): doubling from 1 s up to 60 s, with ±25 % jitter so many tickers do not reconnect in step. */
export function reconnectDelayMs(n: number, random: number): number {
  const base = backoff(n, { first: 1000, factor: 2, cap: 60_000 });
  return Math.round(base * (0.75 + random * 0.5));
}

/** Whose socket a ticker's stream holds: the kind of key it came with. */
export type ClientKind = "full" | "read_only";

/**
 * What a start came to, as POST /realtime/subscribe answers it: the provider resolved the symbol,
 * refused it (with its reason; the stream has stopped), said neither within the wait (the stream
 * goes on connecting, and a refusal that comes later ends it as usual), or the stream was stopped
 * meanwhile (DELETE /realtime/subscribe).
 */
export type StartOutcome =
  | { state: "streaming" }
  | { state: "refused"; reason: string }
  | { state: "connecting" }
  | { state: "stopped" };

export interface StreamStatus {
  ticker: string | null;
  streaming: boolean;
  connected: boolean;
  clients: number;
  lastTickAt: string | null;
  reconnectAttempts: number;
  error: string | null;
  /** Streamed, but no tick within the last tick's lifetime (60 s), or the provider connection is down. */
  stale: boolean;
}

/** A symbol the stream provider refused, and when. */
export interface Refusal {
  ticker: string;
  reason: string;
  at: number;
}
