import { findActiveListings } from "../../db/repositories/catalogue";
import { deactivateSubscription, type SubscriptionRow, saveSubscription } from "../../db/repositories/realtime";
import type { Deps } from "../../deps";
import { NotFoundError, ServiceError } from "../../domain/errors";
import { preferredListing } from "../../domain/listing-choice";
import { streamSymbolOf } from "../../domain/provider-symbols";
import type { StreamDirectory } from "./directory";

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
}

function directory(ctx: Deps): StreamDirectory {
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
  streaming: boolean,
): SubscriptionAnswer => ({
  ticker: r.ticker,
  tv_exchange: r.tvExchange,
  tv_symbol: r.tvSymbol,
  is_active: r.isActive,
  subscribed_at: r.subscribedAt.toISOString(),
  last_tick_at: r.lastTickAt ? r.lastTickAt.toISOString() : null,
  tick_count: r.tickCount,
  is_streaming: streaming,
});

/**
 * POST /realtime/subscribe: starts each ticker's stream; a ticker naming a catalogue listing is
 * stored so the cron restores it, others stream until the next restart only. The subscription is
 * stored before the stream starts, so a refusal by the provider (which deactivates it) comes after.
 */
export async function subscribe({
  ctx,
  input,
}: {
  ctx: Deps;
  input: { tickers: string[] };
}): Promise<SubscriptionAnswer[]> {
  const streams = directory(ctx);
  const out: SubscriptionAnswer[] = [];
  for (const ticker of new Set(input.tickers)) {
    const listing = preferredListing(await findActiveListings(ctx.db.db, { ticker }));
    const [tvExchange = "", tvSymbol = ""] = streamSymbolOf(ticker, listing?.exchange ?? null).split(":");
    const stored = listing
      ? await saveSubscription(ctx.db.db, { ticker, listingId: listing.id, tvExchange, tvSymbol })
      : undefined;
    await streams.start(ticker);
    out.push(
      toAnswer(
        stored ?? {
          ticker,
          tvExchange,
          tvSymbol,
          isActive: true,
          subscribedAt: ctx.clock.now(),
          lastTickAt: null,
          tickCount: 0,
        },
        true,
      ),
    );
  }
  return out;
}

/** DELETE /realtime/subscribe/{ticker}: 404 when the ticker is not streamed. */
export async function unsubscribe({
  ctx,
  input,
}: {
  ctx: Deps;
  input: { ticker: string };
}): Promise<{ status: "unsubscribed"; ticker: string }> {
  const streams = directory(ctx);
  if (!(await streams.list()).includes(input.ticker)) throw new NotFoundError("Streamed ticker", input.ticker);
  await streams.stop(input.ticker);
  await deactivateSubscription(ctx.db.db, input.ticker);
  return { status: "unsubscribed", ticker: input.ticker };
}

export interface RealtimeStatus {
  streaming_count: number;
  active_tickers: string[];
  ws_connections: Record<string, number>;
  total_ws_clients: number;
  stale_tickers: string[];
  worker_running: boolean;
}

/**
 * GET /realtime/status: each streamed ticker's clients; stale = streamed but without a fresh tick
 * (none in the last 60 s, as its object counts them), or its provider connection is down.
 */
export async function realtimeStatus({ ctx }: { ctx: Deps }): Promise<RealtimeStatus> {
  if (!ctx.streams)
    return {
      streaming_count: 0,
      active_tickers: [],
      ws_connections: {},
      total_ws_clients: 0,
      stale_tickers: [],
      worker_running: false,
    };
  const streams = ctx.streams;
  const tickers = await streams.list();
  const statuses = await Promise.all(tickers.map((t) => streams.status(t)));
  const ws_connections: Record<string, number> = {};
  statuses.forEach((s, i) => {
    ws_connections[tickers[i] ?? ""] = s.clients;
  });
  return {
    streaming_count: tickers.length,
    active_tickers: tickers,
    ws_connections,
    total_ws_clients: statuses.reduce((n, s) => n + s.clients, 0),
    stale_tickers: tickers.filter((_, i) => statuses[i]?.stale !== false),
    // The stream workers are the Durable Objects: running when the registry answers.
    worker_running: true,
  };
}
