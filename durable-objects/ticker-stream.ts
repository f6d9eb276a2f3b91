import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import type { Clock } from "../src/clock";
import type { Db } from "../src/db/client";
import { findActiveListings } from "../src/db/repositories/catalogue";
import {
  countOutOfSession,
  countTick,
  deactivateSubscription,
  hasActiveSubscription,
  type IntradayCandle,
  upsertIntradayCandle,
} from "../src/db/repositories/realtime";
import { buildDeps, type Deps } from "../src/deps";
import { toDecimalString } from "../src/domain/decimal";
import type { SchemaDrift } from "../src/domain/drift";
import { preferredListing } from "../src/domain/listing-choice";
import { catalogueVenue, inSession } from "../src/domain/market-hours";
import { STREAM } from "../src/domain/provider-names";
import { liveScale, streamSymbolOf } from "../src/domain/provider-symbols";
import {
  type ClientKind,
  PONG,
  type RealtimeTick,
  reconnectDelayMs,
  type StartOutcome,
  type StreamStatus,
  serverMessage,
  tickOfBar,
} from "../src/domain/realtime";
import { cacheKeys, cacheTtls } from "../src/platform/cache";
import { registryOf } from "../src/platform/stream-registry-stub";
import { type LiveBar, LiveSeries } from "../src/providers/stream/live";
import { recordDrifts } from "../src/services/monitoring/record-drifts";
import { upgraded } from "../src/websocket-response";

const ClientCommand = z.enum(["ping", "unsubscribe"]);
const JsonCommand = z.object({
  type: z
    .string()
    .transform((t) => t.trim().toLowerCase())
    .pipe(ClientCommand),
});

/**
 * Sockets one ticker serves at once (a hibernatable Durable Object can hold some 32,000): past it a
 * handshake gets 429 with Retry-After, so one ticker cannot take its object's memory from the rest.
 */
export const MAX_SOCKETS_PER_TICKER = 5000;
/** Sockets one key may hold on one ticker, so that one key cannot take a ticker's capacity from the others. */
export const MAX_SOCKETS_PER_KEY = 1000;
const SOCKETS_RETRY_AFTER_SECONDS = 30;

function tooManySockets(message: string): Response {
  return Response.json(
    { error: "Too many requests", message },
    { status: 429, headers: { "Retry-After": String(SOCKETS_RETRY_AFTER_SECONDS) } },
  );
}

/** Client commands are a word or a small JSON object: anything longer is refused unread (close 1009). */
export const MAX_CLIENT_MESSAGE_BYTES = 1024;

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

/**
 * One per upper-cased ticker: holds the stream-provider connection of the ticker and its WebSocket
 * clients (hibernation API, tagged with the key kind). For each 1-minute bar update it sends a tick
 * to every client and applies the spec's worker effects: last tick in the cache (60 s), published
 * on price:{TICKER}, candle upserted into prices_intraday for a catalogue listing, tick counted on
 * the stored subscription. Upstream drops are retried with backoff (alarm); a refused symbol ends
 * the stream with an error to its clients.
 */
interface Pending {
  candles: Map<number, IntradayCandle>;
  ticks: number;
  lastAt: Date | null;
  outOfSession: number;
  lastOutOfSession: Date | null;
}

const emptyPending = (): Pending => ({
  candles: new Map(),
  ticks: 0,
  lastAt: null,
  outOfSession: 0,
  lastOutOfSession: null,
});

export class TickerStream extends DurableObject<Env> {
  private ticker: string | null = null;
  private streaming = false;
  /** Set by the constructor when it finds the object streaming: the next alarm decides whether it resumes. */
  private restarted = false;
  private upstream: LiveSeries | undefined;
  private connecting = false;
  /** Bumped by every stop(): a connection that completes after a stop sees it and closes itself. */
  private generation = 0;
  private attempts = 0;
  private lastTick: { at: number; tick: RealtimeTick } | null = null;
  private error: string | null = null;
  /** The provider resolved the symbol on a connection of this stream. */
  private resolved = false;
  /** Starts waiting to learn whether the provider takes the symbol. */
  private waiters: ((outcome: StartOutcome) => void)[] = [];
  private listing: { id: number; exchange: string | null; currency: string } | null | undefined;
  /** Cache effects are applied one tick after another, so a slow write never reorders them. */
  private effects: Promise<void> = Promise.resolve();
  /**
   * Database effects waiting for the next write: the newest candle of each minute, the ticks to
   * count, and the candles left unstored for falling outside the venue's session.
   */
  private pending: Pending = emptyPending();
  private writing: Promise<void> | null = null;
  private readonly deps: Deps;
  private readonly clock: Clock;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.deps = buildDeps(env, { deadlineMs: Number.POSITIVE_INFINITY });
    this.clock = this.deps.clock;
    // A bare "ping" is answered by the runtime without waking a hibernated object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", PONG));
    void ctx.blockConcurrencyWhile(async () => {
      this.ticker = (await ctx.storage.get<string>("ticker")) ?? null;
      this.streaming = (await ctx.storage.get<boolean>("streaming")) ?? false;
      // Restarted (a deploy, an eviction) while streaming: the alarm decides at once whether it resumes.
      if (this.streaming) {
        this.restarted = true;
        await ctx.storage.setAlarm(this.clock.now().getTime());
      }
    });
  }

  /**
   * A client's WebSocket upgrade, forwarded by the Worker after the key check. A full-access key
   * starts the stream first: if that fails, the client gets a 503 and no socket.
   */
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const ticker = url.searchParams.get("ticker") ?? "";
    const kind: ClientKind = url.searchParams.get("kind") === "full" ? "full" : "read_only";
    const client = `key:${url.searchParams.get("client") ?? ""}`;
    const full = () => this.socketLimitReached(ticker, client);
    const refused = full();
    if (refused) return refused;
    if (kind === "full") {
      try {
        await this.start(ticker);
      } catch (err) {
        console.warn("stream start failed", ticker, String(err));
        return Response.json(
          { error: "Upstream unavailable", message: `The stream of ${ticker} could not be started; try again shortly` },
          { status: 503 },
        );
      }
    }
    // Checked again: other handshakes may have been accepted while the stream was starting.
    const late = full();
    if (late) return late;
    const pair = new WebSocketPair();
    const [socket, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [kind, client]);
    const now = this.clock.now();
    if (this.streaming) {
      const last = (await this.deps.cache.get<RealtimeTick>(cacheKeys.quote(ticker))) ?? this.freshTick();
      if (last) server.send(serverMessage("snapshot", ticker, last, null, now));
    } else {
      server.send(
        serverMessage(
          "not_streaming",
          ticker,
          null,
          `${ticker} is not streamed; a read-only key cannot start a stream (subscribe with a full-access key)`,
          now,
        ),
      );
    }
    return upgraded(socket);
  }

  /** A 429 when the ticker, or this key on it, already holds its most sockets; null when one more fits. */
  private socketLimitReached(ticker: string, client: string): Response | null {
    if (this.ctx.getWebSockets().length >= MAX_SOCKETS_PER_TICKER)
      return tooManySockets(`${ticker} already serves ${MAX_SOCKETS_PER_TICKER} sockets; retry later`);
    if (this.ctx.getWebSockets(client).length >= MAX_SOCKETS_PER_KEY)
      return tooManySockets(`This key already holds ${MAX_SOCKETS_PER_KEY} sockets on ${ticker}; close some first`);
    return null;
  }

  /**
   * Starts (or keeps) streaming the ticker; waits at most `waitMs` for the provider to take or
   * refuse the symbol, and answers which (0: answers at once).
   */
  async start(ticker: string, waitMs = 0): Promise<StartOutcome> {
    // One deadline for the whole start: the connection's handshake is part of the wait.
    const deadline = this.clock.now().getTime() + waitMs;
    // Asked to stream now (a subscription, a full-access socket): no restart decision overrides it.
    this.restarted = false;
    if (!this.streaming || this.ticker !== ticker) {
      this.ticker = ticker;
      this.streaming = true;
      this.error = null;
      this.resolved = false;
      await this.ctx.storage.put({ ticker, streaming: true });
      await registryOf(this.env.STREAM_REGISTRY).add(ticker, this.clock.now().getTime());
    }
    await this.openUpstream();
    return this.outcome(deadline - this.clock.now().getTime());
  }

  private outcome(waitMs: number): Promise<StartOutcome> {
    if (!this.streaming)
      return Promise.resolve(this.error === null ? { state: "stopped" } : { state: "refused", reason: this.error });
    if (this.resolved) return Promise.resolve({ state: "streaming" });
    if (waitMs <= 0) return Promise.resolve({ state: "connecting" });
    return new Promise((resolve) => {
      const waiter = (o: StartOutcome) => {
        clearTimeout(timer);
        resolve(o);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve({ state: "connecting" });
      }, waitMs);
      this.waiters.push(waiter);
    });
  }

  /** Tells every start waiting what came of the symbol. */
  private settle(outcome: StartOutcome): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w(outcome);
  }

  /** Stops streaming; clients are told by a normal close, and starts still waiting by `outcome`. */
  async stop(
    outcome: StartOutcome = { state: "stopped" },
    close: { code: number; reason: string } = { code: 1000, reason: "stream stopped" },
  ): Promise<void> {
    this.streaming = false;
    this.generation += 1;
    await this.ctx.storage.put("streaming", false);
    await this.ctx.storage.deleteAlarm();
    if (this.ticker) await registryOf(this.env.STREAM_REGISTRY).remove(this.ticker);
    this.upstream?.close();
    this.upstream = undefined;
    this.resolved = false;
    for (const ws of this.ctx.getWebSockets()) this.closeQuietly(ws, close.code, close.reason);
    this.settle(outcome);
  }

  async status(): Promise<StreamStatus> {
    const connected = this.upstream !== undefined;
    return {
      ticker: this.ticker,
      streaming: this.streaming,
      connected,
      clients: this.ctx.getWebSockets().length,
      lastTickAt: this.lastTick === null ? null : new Date(this.lastTick.at).toISOString(),
      reconnectAttempts: this.attempts,
      error: this.error,
      stale: this.streaming && (!connected || this.freshTick() === null),
    };
  }

  /** The last tick if it is still fresh (the cache's 60 s): what /quote reads when no shared cache exists. */
  async lastFreshTick(): Promise<RealtimeTick | null> {
    return this.streaming ? this.freshTick() : null;
  }

  private freshTick(): RealtimeTick | null {
    const ttlMs = cacheTtls(this.deps.config).quote * 1000;
    return this.lastTick && this.clock.now().getTime() - this.lastTick.at <= ttlMs ? this.lastTick.tick : null;
  }

  /** Reconnects after a drop, and while connected watches for a stalled provider (nothing received for STREAM_STALL_MS). */
  override async alarm(): Promise<void> {
    if (!this.streaming) return;
    if (this.restarted) {
      this.restarted = false;
      if (!(await this.resumesAfterRestart())) return;
    }
    if (this.upstream && this.clock.now().getTime() - this.upstream.lastFrameAt > this.deps.config.STREAM_STALL_MS) {
      console.warn("stream stalled, reopening", this.ticker);
      this.upstream.close();
      this.upstream = undefined;
    }
    if (!this.upstream) await this.openUpstream();
    else await this.watch();
  }

  /**
   * After a restart only a ticker with an active stored subscription (a catalogue ticker) resumes,
   * as the spec has it; any other stops streaming (its clients are told by a normal close). When the
   * database cannot say, the stream resumes: a catalogue stream is never lost to a database hiccup.
   * Answers whether the stream goes on.
   */
  async resumesAfterRestart(): Promise<boolean> {
    if (!this.streaming || !this.ticker) return false;
    const ticker = this.ticker;
    let stored = true;
    try {
      stored = await this.withDb((db) => hasActiveSubscription(db, ticker));
    } catch (err) {
      console.warn("restart: the stored subscription could not be read, resuming", ticker, String(err));
    }
    if (!stored) await this.stop();
    return stored;
  }

  private async watch(): Promise<void> {
    await this.ctx.storage.setAlarm(this.clock.now().getTime() + Math.max(500, this.deps.config.STREAM_STALL_MS / 2));
  }

  /**
   * `ping` (or `{"type":"ping"}`) is answered with exactly `{"type":"pong"}`; `unsubscribe` closes;
   * a message over MAX_CLIENT_MESSAGE_BYTES closes with 1009 unread; anything else is ignored.
   */
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // A string's UTF-8 size is at most three bytes per UTF-16 unit: the cheap bound spares encoding small messages.
    const size =
      typeof message === "string"
        ? message.length * 3 <= MAX_CLIENT_MESSAGE_BYTES
          ? message.length
          : new TextEncoder().encode(message).byteLength
        : message.byteLength;
    if (size > MAX_CLIENT_MESSAGE_BYTES) {
      this.closeQuietly(ws, 1009, `messages are at most ${MAX_CLIENT_MESSAGE_BYTES} bytes`);
      return;
    }
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
    const generation = this.generation;
    try {
      if (this.listing === undefined) {
        const chosen = preferredListing(await this.withDb((db) => findActiveListings(db, { ticker })));
        this.listing = chosen ? { id: chosen.id, exchange: chosen.exchange, currency: chosen.currency } : null;
      }
      let live: LiveSeries | undefined;
      live = await LiveSeries.open(
        this.deps.config.STREAM_PROVIDER_WS_URL,
        streamSymbolOf(ticker, this.listing?.exchange ?? null),
        {
          onBar: (bar) => this.onBar(ticker, bar),
          onFatal: (err) => void this.onFatal(ticker, err.message),
          onDrift: (drifts) => void this.recordDrift(ticker, drifts),
          onResolved: () => {
            if (generation !== this.generation) return;
            this.resolved = true;
            this.settle({ state: "streaming" });
          },
          onClosed: () => {
            // A connection that closes before it was adopted is handled below; an older one is nobody's.
            if (live === undefined || this.upstream !== live) return;
            this.upstream = undefined;
            void this.scheduleReconnect();
          },
        },
        { connectTimeoutMs: this.deps.config.PROVIDER_TIMEOUT_MS, clock: this.clock },
      );
      // stop() ran while we were connecting: this connection belongs to no one.
      if (generation !== this.generation || !this.streaming) {
        live.close();
        return;
      }
      if (live.isClosed) {
        await this.scheduleReconnect();
        return;
      }
      this.upstream = live;
      this.attempts = 0;
      await this.watch();
    } catch (err) {
      console.warn("stream connect failed", ticker, err instanceof Error ? err.message : String(err));
      if (generation === this.generation) await this.scheduleReconnect();
    } finally {
      this.connecting = false;
    }
  }

  /** A bar of another shape: left out, and recorded as schema_drift (once a day per place: recordDrifts keeps count). */
  private async recordDrift(ticker: string, drifts: SchemaDrift[]): Promise<void> {
    this.deps.journal.drifts.report(ticker, drifts);
    await recordDrifts(this.deps).catch((err: unknown) =>
      console.warn("stream drift not recorded", ticker, String(err)),
    );
  }

  private async scheduleReconnect(): Promise<void> {
    if (!this.streaming) return;
    this.attempts += 1;
    await this.ctx.storage.setAlarm(this.clock.now().getTime() + reconnectDelayMs(this.attempts, Math.random()));
  }

  /** The provider refused the symbol: the clients are told, the stream stops, and the stored subscription is deactivated so the cron does not restore it. */
  private async onFatal(ticker: string, message: string): Promise<void> {
    const now = this.clock.now();
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(serverMessage("error", ticker, null, message, now));
      } catch {
        // the client is gone
      }
    }
    this.upstream = undefined;
    this.error = message;
    // Recorded before anyone hears of it (the waiting starts, the clients' close), so that
    // /realtime/status and the stored subscription say it by then.
    await registryOf(this.env.STREAM_REGISTRY)
      .refuse(ticker, message, now.getTime())
      .catch((err: unknown) => console.warn("recording a refused symbol failed", ticker, String(err)));
    await this.withDb((db) => deactivateSubscription(db, ticker)).catch((err: unknown) =>
      console.warn("deactivating a refused subscription failed", ticker, String(err)),
    );
    await this.stop(
      { state: "refused", reason: message },
      { code: 1011, reason: "the stream provider refused the symbol" },
    );
  }

  private onBar(ticker: string, bar: LiveBar): void {
    const tick = tickOfBar(ticker, bar);
    const now = this.clock.now();
    this.lastTick = { at: now.getTime(), tick };
    const text = serverMessage("tick", ticker, tick, null, now);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        // one broken client must not stop the others
      }
    }
    this.effects = this.effects
      .then(() => this.cacheEffects(ticker, tick))
      .catch((err: unknown) =>
        console.warn("tick cache effects failed", ticker, err instanceof Error ? err.message : String(err)),
      );
    // The stored candle is in the listing's currency, as its daily bars are (a London pence line's
    // ticks are in pence): one whose unit cannot be told is not stored.
    const scale = this.listing ? liveScale(bar.currency, this.listing.currency) : null;
    // A candle outside the venue's session (a weekend, before the open) is no trade of it: counted, not stored.
    const venue = this.listing ? catalogueVenue(this.listing.exchange) : undefined;
    const minute = new Date(tick.timestamp);
    if (venue && !inSession(venue, minute)) {
      this.pending.outOfSession += 1;
      this.pending.lastOutOfSession = minute;
    } else if (this.listing && scale !== null) {
      const price = (x: string) => (scale === 1 ? x : toDecimalString(Number(x) * scale, 8));
      this.pending.candles.set(Date.parse(tick.timestamp), {
        minute: new Date(tick.timestamp),
        open: price(tick.open),
        high: price(tick.high),
        low: price(tick.low),
        close: price(tick.close),
        volume: tick.volume,
      });
    }
    this.pending.ticks += 1;
    this.pending.lastAt = now;
    this.writeSoon(ticker);
  }

  private async cacheEffects(ticker: string, tick: RealtimeTick): Promise<void> {
    const { cache, config } = this.deps;
    await cache.set(cacheKeys.quote(ticker), tick, cacheTtls(config).quote);
    await cache.publish(cacheKeys.priceChannel(ticker), tick);
  }

  /**
   * Writes what the ticks left pending, one connection per write: ticks arriving meanwhile wait
   * for the next one, so a slow database costs one write per round trip, not one per tick.
   */
  private writeSoon(ticker: string): void {
    if (this.writing) return;
    this.writing = this.writePending(ticker)
      .catch((err: unknown) =>
        console.warn("tick writes failed", ticker, err instanceof Error ? err.message : String(err)),
      )
      .finally(() => {
        this.writing = null;
        if (this.pending.ticks > 0) this.writeSoon(ticker);
      });
  }

  private async writePending(ticker: string): Promise<void> {
    const { candles, ticks, lastAt, outOfSession, lastOutOfSession } = this.pending;
    this.pending = emptyPending();
    const listing = this.listing;
    await this.withDb(async (db) => {
      if (listing) for (const candle of candles.values()) await upsertIntradayCandle(db, listing.id, candle, STREAM);
      if (lastAt) await countTick(db, ticker, lastAt, ticks);
      if (lastOutOfSession) await countOutOfSession(db, ticker, lastOutOfSession, outOfSession);
    });
  }

  /**
   * The object's database work goes over SQL-over-HTTP only (no transaction): an object lives for
   * hours, and a pool kept open across events would die with the isolate's sockets.
   */
  private withDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return work(this.deps.db);
  }

  private closeQuietly(ws: WebSocket, code: number, reason: string): void {
    try {
      ws.close(code, reason);
    } catch {
      // already closed
    }
  }
}
