import {
  deactivateSubscription,
  outOfSessionCounts,
  type SubscriptionRow,
  saveSubscription,
} from "../../db/repositories/realtime";
import { NotFoundError, ServiceError } from "../../domain/errors";
import { streamSymbolOf } from "../../domain/provider-symbols";
import type { StartOutcome } from "../../domain/realtime";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import type { StreamDirectory } from "../../platform/stream-directory";
import { findListing } from "../shared/resolve-listing";
import type { RestoreRun } from "./restore";

/** The spec's Subscription. */
export interface SubscriptionAnswer {
  ticker: string;
  tv_exchange: string;
  tv_symbol: string;
  is_active: boolean;
  subscribed_at: string;
  last_tick_at: string | null;
  tick_count: number;
  is_streaming: boolean;
  stream_state: StartOutcome["state"];
  refused_reason: string | null;
}

function directory(ctx: Context): StreamDirectory {
  if (!ctx.streams)
    throw new ServiceError(
      "UPSTREAM_UNAVAILABLE",
      "Realtime streaming is not configured (Durable Object bindings missing)",
    );
  return ctx.streams;
}

const toAnswer = (
  r: Pick<
    SubscriptionRow,
    "ticker" | "tvExchange" | "tvSymbol" | "isActive" | "subscribedAt" | "lastTickAt" | "tickCount"
  >,
  outcome: StartOutcome,
  running = outcome.state === "streaming" || outcome.state === "connecting",
): SubscriptionAnswer => ({
  ticker: r.ticker,
  tv_exchange: r.tvExchange,
  tv_symbol: r.tvSymbol,
  // A refused symbol's stored subscription is deactivated by its stream, a stopped one by the DELETE.
  is_active: r.isActive && running,
  subscribed_at: r.subscribedAt.toISOString(),
  last_tick_at: r.lastTickAt ? r.lastTickAt.toISOString() : null,
  tick_count: r.tickCount,
  is_streaming: running,
  stream_state: outcome.state,
  refused_reason: outcome.state === "refused" ? outcome.reason : null,
});

/**
 * POST /realtime/subscribe: starts each ticker's stream; a ticker naming a catalogue listing is
 * stored so the cron restores it, others stream until the next restart only. The subscription is
 * stored before the stream starts; each start waits (at most PROVIDER_TIMEOUT_MS, the tickers side
 * by side) for the stream provider to take or refuse the symbol, and the answer says which: a
 * refused symbol is never answered as streaming (its stream stops and its subscription ends).
 */
export async function subscribe({
  ctx,
  input,
}: {
  ctx: Context;
  input: { tickers: string[] };
}): Promise<SubscriptionAnswer[]> {
  const streams = directory(ctx);
  const one = async (ticker: string): Promise<SubscriptionAnswer> => {
    const listing = await findListing({ ctx, input: { ticker } });
    const [tvExchange = "", tvSymbol = ""] = streamSymbolOf(ticker, listing?.exchange ?? null).split(":");
    const stored = listing
      ? await saveSubscription(ctx.db, { ticker, listingId: listing.id, tvExchange, tvSymbol })
      : undefined;
    const outcome = await streams.start(ticker, ctx.config.PROVIDER_TIMEOUT_MS);
    return toAnswer(
      stored ?? {
        ticker,
        tvExchange,
        tvSymbol,
        isActive: true,
        subscribedAt: ctx.clock.now(),
        lastTickAt: null,
        tickCount: 0,
      },
      outcome,
    );
  };
  return Promise.all([...new Set(input.tickers)].map(one));
}

/** DELETE /realtime/subscribe/{ticker}: 404 when the ticker is not streamed. */
export async function unsubscribe({
  ctx,
  input,
}: {
  ctx: Context;
  input: { ticker: string };
}): Promise<{ status: "unsubscribed"; ticker: string }> {
  const streams = directory(ctx);
  if (!(await streams.list()).includes(input.ticker)) throw new NotFoundError("Streamed ticker", input.ticker);
  await streams.stop(input.ticker);
  await deactivateSubscription(ctx.db, input.ticker);
  return { status: "unsubscribed", ticker: input.ticker };
}

export interface RealtimeStatus {
  streaming_count: number;
  active_tickers: string[];
  ws_connections: Record<string, number>;
  total_ws_clients: number;
  stale_tickers: string[];
  /** The registry answered, and the object of every streamed ticker answered its status. */
  worker_running: boolean;
  /** Streamed tickers whose object answered (the others count as stale). */
  objects_answering: number;
  /** The restore cron's last run (every 5 minutes; null: none within a day). */
  restore_last_run: RestoreRun | null;
  /** Tickers the stream provider refused within the last day, with its reason and when. */
  refused_tickers: Record<string, { reason: string; at: string }>;
  /** Stored subscriptions whose stream sent candles outside the venue's session (counted, never stored). */
  out_of_session: Record<string, { candles: number; last_at: string | null }>;
}

/** The status when no stream can be known (no Durable Object bindings, or the registry not answering). */
const noStreams = (
  restore_last_run: RestoreRun | null,
  out_of_session: RealtimeStatus["out_of_session"],
): RealtimeStatus => ({
  streaming_count: 0,
  active_tickers: [],
  ws_connections: {},
  total_ws_clients: 0,
  stale_tickers: [],
  worker_running: false,
  objects_answering: 0,
  restore_last_run,
  refused_tickers: {},
  out_of_session,
});

/** The out-of-session counts of the stored subscriptions; a database that fails costs them, not the status. */
async function outOfSession(ctx: Context): Promise<RealtimeStatus["out_of_session"]> {
  const rows = await outOfSessionCounts(ctx.db).catch((err: unknown) => {
    console.warn("realtime status: out-of-session counts not read", String(err));
    return [];
  });
  return Object.fromEntries(
    rows.map((r) => [r.ticker, { candles: r.count, last_at: r.lastAt ? r.lastAt.toISOString() : null }]),
  );
}

/**
 * GET /realtime/status: each streamed ticker's clients; stale = streamed but without a fresh tick
 * (none in the last 60 s, as its object counts them), or its provider connection is down.
 */
export async function realtimeStatus({ ctx }: { ctx: Context }): Promise<RealtimeStatus> {
  // Read beside the streams' status, not before it.
  const counted = outOfSession(ctx);
  if (!ctx.streams) return noStreams(null, await counted);
  const streams = ctx.streams;
  const restore_last_run = await ctx.cache.get<RestoreRun>(cacheKeys.restoreRun()).catch(() => null);
  let tickers: string[];
  try {
    tickers = await streams.list();
  } catch (err) {
    // The registry did not answer: nothing is known of the streams, and the workers are not running.
    console.warn("realtime status: the registry did not answer", String(err));
    return noStreams(restore_last_run, await counted);
  }
  const refusals = streams.refusals(ctx.clock.now().getTime()).catch((err: unknown) => {
    console.warn("realtime status: the refusals were not read", String(err));
    return [];
  });
  const settled = await Promise.allSettled(tickers.map((t) => streams.status(t)));
  const ws_connections: Record<string, number> = {};
  let clients = 0;
  settled.forEach((s, i) => {
    const n = s.status === "fulfilled" ? s.value.clients : 0;
    ws_connections[tickers[i] ?? ""] = n;
    clients += n;
  });
  const answering = settled.filter((s) => s.status === "fulfilled").length;
  return {
    streaming_count: tickers.length,
    active_tickers: tickers,
    ws_connections,
    total_ws_clients: clients,
    // An object that did not answer is stale too: nothing says it has a fresh tick.
    stale_tickers: tickers.filter((_, i) => {
      const s = settled[i];
      return s?.status !== "fulfilled" || s.value.stale !== false;
    }),
    worker_running: answering === tickers.length,
    objects_answering: answering,
    restore_last_run,
    refused_tickers: Object.fromEntries(
      (await refusals).map((r) => [r.ticker, { reason: r.reason, at: new Date(r.at).toISOString() }]),
    ),
    out_of_session: await counted,
  };
}
