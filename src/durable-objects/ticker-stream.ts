import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import { type Cache, cacheKeys, cacheTtls, createCache } from "../cache";
import { DbHandle } from "../db/client";
import { findActiveListings } from "../db/repositories/catalogue";
import { countTick, upsertIntradayCandle } from "../db/repositories/realtime";
import { preferredListing } from "../domain/listing-choice";
import { streamSymbolOf } from "../domain/provider-symbols";
import { PONG, type RealtimeTick, reconnectDelayMs, serverMessage, tickOfBar } from "../domain/realtime";
import { type Config, loadConfig } from "../env";
import { type LiveBar, LiveSeries } from "../providers/stream/live";
import type { RealtimeEnv } from "./env";
import { registryOf } from "./registry-stub";
import { upgraded } from "../websocket-response";

export type ClientKind = "full" | "read_only";

const ClientCommand = z.enum(["ping", "unsubscribe"]);
const JsonCommand = z.object({ type: z.string().transform((t) => t.trim().toLowerCase()).pipe(ClientCommand) });

/** A client's message as a command: the bare word or `{"type": ...}`, case and spaces ignored; null for anything else. */
function clientCommand(text: string): z.infer<typeof ClientCommand> | null {
  const word = ClientCommand.safeParse(text.trim().toLowerCase());
  if (word.success) return word.data;
  try {
    const json = JsonCommand.safeParse(JSON.parse(text));
    return json.success ? json.data.type : null;
  } catch {
    return null;
  }
}

export interface StreamStatus {
  ticker: string | null;
  streaming: boolean;
  connected: boolean;
  clients: number;
  lastTickAt: string | null;
  reconnectAttempts: number;
  error: string | null;
}

/**
 * One per upper-cased ticker: holds the stream-provider connection of the ticker and its WebSocket
 * clients (hibernation API, tagged with the key kind). For each 1-minute bar update it sends a tick
 * to every client and applies the spec's worker effects: last tick in the cache (60 s), published
 * on price:{TICKER}, candle upserted into prices_intraday for a catalogue listing, tick counted on
 * the stored subscription. Upstream drops are retried with backoff (alarm); a refused symbol ends
 * the stream with an error to its clients.
 */
export class TickerStream extends DurableObject<RealtimeEnv> {
  private ticker: string | null = null;
  private streaming = false;
  private upstream: LiveSeries | undefined;
  private connecting = false;
  private attempts = 0;
  private lastTickAt: number | null = null;
  private error: string | null = null;
  private listing: { id: number; exchange: string | null } | null | undefined;
  /** Effects are applied one tick after another, so a slow write never reorders them. */
  private effects: Promise<void> = Promise.resolve();
  private readonly config: Config;
  private readonly cache: Cache;
  private readonly db: DbHandle;

  constructor(ctx: DurableObjectState, env: RealtimeEnv) {
    super(ctx, env);
    this.config = loadConfig(env);
    this.cache = createCache(this.config);
    this.db = new DbHandle(this.config);
    void ctx.blockConcurrencyWhile(async () => {
      this.ticker = (await ctx.storage.get<string>("ticker")) ?? null;
      this.streaming = (await ctx.storage.get<boolean>("streaming")) ?? false;
      // Evicted while streaming: reconnect right away.
      if (this.streaming) await ctx.storage.setAlarm(Date.now());
    });
  }

  /** A client's WebSocket upgrade, forwarded by the Worker after the key check. */
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const ticker = url.searchParams.get("ticker") ?? "";
    const kind: ClientKind = url.searchParams.get("kind") === "full" ? "full" : "read_only";
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [kind]);
    if (kind === "full") await this.start(ticker);
    if (this.streaming) {
      const last = await this.cache.get<RealtimeTick>(cacheKeys.quote(ticker));
      if (last) server.send(serverMessage("snapshot", ticker, last));
    } else {
      server.send(serverMessage("not_streaming", ticker, null, `${ticker} is not streamed; a read-only key cannot start a stream (subscribe with a full-access key)`));
    }
    return upgraded(client);
  }

  /** Starts (or keeps) streaming the ticker. */
  async start(ticker: string): Promise<void> {
    if (!this.streaming || this.ticker !== ticker) {
      this.ticker = ticker;
      this.streaming = true;
      this.error = null;
      await this.ctx.storage.put({ ticker, streaming: true });
      await registryOf(this.env.STREAM_REGISTRY).add(ticker);
    }
    await this.openUpstream();
  }

  /** Stops streaming; clients are told by a normal close. */
  async stop(): Promise<void> {
    this.streaming = false;
    await this.ctx.storage.put("streaming", false);
    await this.ctx.storage.deleteAlarm();
    if (this.ticker) await registryOf(this.env.STREAM_REGISTRY).remove(this.ticker);
    this.upstream?.close();
    this.upstream = undefined;
    for (const ws of this.ctx.getWebSockets()) this.closeQuietly(ws, 1000, "stream stopped");
  }

  async status(): Promise<StreamStatus> {
    return {
      ticker: this.ticker,
      streaming: this.streaming,
      connected: this.upstream !== undefined,
      clients: this.ctx.getWebSockets().length,
      lastTickAt: this.lastTickAt === null ? null : new Date(this.lastTickAt).toISOString(),
      reconnectAttempts: this.attempts,
      error: this.error,
    };
  }

  /** Reconnects after a drop, and while connected watches for a stalled provider (nothing received for STREAM_STALL_MS). */
  override async alarm(): Promise<void> {
    if (!this.streaming) return;
    if (this.upstream && Date.now() - this.upstream.lastFrameAt > this.config.STREAM_STALL_MS) {
      console.warn("stream stalled, reopening", this.ticker);
      this.upstream.close();
      this.upstream = undefined;
    }
    if (!this.upstream) await this.openUpstream();
    else await this.watch();
  }

  private async watch(): Promise<void> {
    await this.ctx.storage.setAlarm(Date.now() + Math.max(500, this.config.STREAM_STALL_MS / 2));
  }

  /** `ping` (or `{"type":"ping"}`) is answered with exactly `{"type":"pong"}`; `unsubscribe` closes; anything else is ignored. */
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const command = clientCommand(typeof message === "string" ? message : new TextDecoder().decode(message));
    try {
      if (command === "ping") ws.send(PONG);
      else if (command === "unsubscribe") this.closeQuietly(ws, 1000, "unsubscribed");
    } catch {
      // the client went away meanwhile
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.closeQuietly(ws, code === 1005 || code === 1006 ? 1000 : code, reason);
  }

  private async openUpstream(): Promise<void> {
    if (!this.streaming || !this.ticker || this.upstream || this.connecting) return;
    this.connecting = true;
    const ticker = this.ticker;
    try {
      if (this.listing === undefined) {
        const chosen = preferredListing(await findActiveListings(this.db.db, { ticker }));
        this.listing = chosen ? { id: chosen.id, exchange: chosen.exchange } : null;
      }
      this.upstream = await LiveSeries.open(this.config.STREAM_PROVIDER_WS_URL, streamSymbolOf(ticker, this.listing?.exchange ?? null), {
        onBar: (bar) => this.onBar(ticker, bar),
        onFatal: (err) => void this.onFatal(ticker, err.message),
        onClosed: () => {
          this.upstream = undefined;
          void this.scheduleReconnect();
        },
      });
      this.attempts = 0;
      await this.watch();
    } catch (err) {
      console.warn("stream connect failed", ticker, err instanceof Error ? err.message : String(err));
      await this.scheduleReconnect();
    } finally {
      this.connecting = false;
    }
  }

  private async scheduleReconnect(): Promise<void> {
    if (!this.streaming) return;
    this.attempts += 1;
    await this.ctx.storage.setAlarm(Date.now() + reconnectDelayMs(this.attempts, Math.random()));
  }

  private async onFatal(ticker: string, message: string): Promise<void> {
    this.error = message;
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(serverMessage("error", ticker, null, message));
      } catch {
        // the client is gone
      }
      this.closeQuietly(ws, 1011, "the stream provider refused the symbol");
    }
    this.upstream = undefined;
    await this.stop();
    this.error = message;
  }

  private onBar(ticker: string, bar: LiveBar): void {
    const tick = tickOfBar(ticker, bar);
    this.lastTickAt = Date.now();
    const text = serverMessage("tick", ticker, tick);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        // one broken client must not stop the others
      }
    }
    this.effects = this.effects.then(() => this.applyEffects(ticker, tick)).catch((err: unknown) => console.warn("tick effects failed", ticker, err instanceof Error ? err.message : String(err)));
  }

  private async applyEffects(ticker: string, tick: RealtimeTick): Promise<void> {
    await this.cache.set(cacheKeys.quote(ticker), tick, cacheTtls(this.config).quote);
    await this.cache.publish(cacheKeys.priceChannel(ticker), tick);
    if (this.listing) {
      await upsertIntradayCandle(this.db.db, this.listing.id, { minute: new Date(tick.timestamp), open: tick.open, high: tick.high, low: tick.low, close: tick.close, volume: tick.volume }, tick.source);
    }
    await countTick(this.db.db, ticker, new Date());
  }

  private closeQuietly(ws: WebSocket, code: number, reason: string): void {
    try {
      ws.close(code, reason);
    } catch {
      // already closed
    }
  }
}
