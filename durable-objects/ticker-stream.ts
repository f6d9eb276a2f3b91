import { DurableObject } from "cloudflare:workers";
import type { Clock } from "../src/clock";
import { findActiveListings } from "../src/db/repositories/catalogue";
import { deactivateSubscription, hasActiveSubscription } from "../src/db/repositories/realtime";
import { buildDeps, type Deps } from "../src/deps";
import { preferredListing } from "../src/domain/listing-choice";
import { streamSymbolOf } from "../src/domain/provider-symbols";
import {
  type ClientKind,
  PONG,
  type RealtimeTick,
  type StartOutcome,
  type StreamStatus,
  serverMessage,
  tickOfBar,
} from "../src/domain/realtime";
import { SPENT_TICKET } from "../src/domain/realtime-ticket";
import { cacheKeys, cacheTtls } from "../src/platform/cache";
import { registryOf } from "../src/platform/stream-registry-stub";
import type { LiveBar } from "../src/providers/stream/live";
import { closedSocket, upgraded } from "../src/websocket-response";
import { Admission } from "./stream/admission";
import { closeQuietly, greet, StreamClients, startFailed } from "./stream/clients";
import { StartWaiters } from "./stream/start-waiters";
import { type StreamListing, TickWriter } from "./stream/tick-writer";
import type { TicketHolder } from "./stream/tickets";
import { UpstreamConnection, type UpstreamEvents } from "./stream/upstream";

/**
 * One per upper-cased ticker: holds the stream-provider connection of the ticker
 * (stream/upstream.ts) and its WebSocket clients (stream/clients.ts: hibernation API, tagged with the
 * key kind). For each 1-minute bar update it sends a tick to every client and applies the spec's
 * worker effects (stream/tick-writer.ts). Upstream drops are retried with backoff (alarm); a refused
 * symbol ends the stream with an error to its clients.
 */
export class TickerStream extends DurableObject<Env> {
  private ticker: string | null = null;
  private streaming = false;
  /** Set by the constructor when it finds the object streaming: the next alarm decides whether it resumes. */
  private restarted = false;
  private lastTick: { at: number; tick: RealtimeTick } | null = null;
  private error: string | null = null;
  /** The provider resolved the symbol on a connection of this stream. */
  private resolved = false;
  private readonly waiters = new StartWaiters();
  private listing: StreamListing | null | undefined;
  private readonly deps: Deps;
  private readonly clock: Clock;
  private readonly clients: StreamClients;
  private readonly upstream: UpstreamConnection;
  private readonly writer: TickWriter;
  private readonly admission: Admission;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The object's database work goes over SQL-over-HTTP only (no transaction): an object lives for
    // hours, and a pool kept open across events would die with the isolate's sockets.
    this.deps = buildDeps(env, { deadlineMs: Number.POSITIVE_INFINITY });
    this.clock = this.deps.clock;
    this.clients = new StreamClients(ctx);
    this.writer = new TickWriter(this.deps);
    this.admission = new Admission(ctx.storage, this.clock, env.KEY_METER, this.clients);
    this.upstream = new UpstreamConnection(
      ctx.storage,
      () => ({
        url: this.deps.config.STREAM_PROVIDER_WS_URL,
        connectTimeoutMs: this.deps.config.PROVIDER_TIMEOUT_MS,
        stallMs: this.deps.config.STREAM_STALL_MS,
        clock: this.clock,
      }),
      () => this.streaming,
    );
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
   * A client's WebSocket upgrade, forwarded by the Worker after the key check (`kind` and `client`
   * set by the Worker) or with a ticket this object issued (spent here). The socket takes a lease of
   * its key's KeyMeter (the key's cap over all tickers), given back when it closes.
   */
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const ticker = url.searchParams.get("ticker") ?? "";
    const holder = await this.admission.holderOf(url);
    if (!holder) return closedSocket(1008, SPENT_TICKET);
    return (
      this.clients.refusal(ticker) ??
      this.admission.underLease(holder, ticker, (lease) => this.admit(ticker, holder, lease))
    );
  }

  /** Keeps a sealed ticket of this ticker for a key (POST /realtime/ticket): its expiry, null when the key holds too many. */
  keepTicket(ticket: string, kind: ClientKind, fingerprint: string): Promise<string | null> {
    return this.admission.keep(ticket, kind, fingerprint);
  }

  /** The leases of one key's open sockets here (its KeyMeter asks, to drop leases never given back). */
  async openLeases(client: string): Promise<string[]> {
    return this.clients.leasesOf(client);
  }

  /** A full-access key starts the stream first: if that fails, the client gets a 503 and no socket. */
  private async admit(ticker: string, holder: TicketHolder, lease: string): Promise<Response> {
    if (holder.kind === "full") {
      try {
        await this.start(ticker);
      } catch (err) {
        console.warn("stream start failed", ticker, String(err));
        return startFailed(ticker);
      }
    }
    // Checked again: other handshakes may have been accepted while the stream was starting.
    const late = this.clients.refusal(ticker);
    if (late) return late;
    const { socket, server } = this.clients.accept(holder.kind, holder.client, lease);
    // Whether it streams as the socket is accepted: a stop while the last tick is read closes it itself.
    const streaming = this.streaming;
    const last = streaming
      ? ((await this.deps.cache.get<RealtimeTick>(cacheKeys.quote(ticker))) ?? this.freshTick())
      : null;
    greet(server, ticker, streaming, last, this.clock.now());
    return upgraded(socket);
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
    return this.waiters.wait(waitMs);
  }

  /** Stops streaming; clients are told by a normal close, and starts still waiting by `outcome`. */
  async stop(
    outcome: StartOutcome = { state: "stopped" },
    close: { code: number; reason: string } = { code: 1000, reason: "stream stopped" },
  ): Promise<void> {
    this.streaming = false;
    this.upstream.close();
    await this.ctx.storage.put("streaming", false);
    await this.ctx.storage.deleteAlarm();
    if (this.ticker) await registryOf(this.env.STREAM_REGISTRY).remove(this.ticker);
    this.resolved = false;
    this.clients.closeAll(close.code, close.reason);
    this.waiters.settle(outcome);
  }

  async status(): Promise<StreamStatus> {
    const connected = this.upstream.connected;
    return {
      ticker: this.ticker,
      streaming: this.streaming,
      connected,
      clients: this.clients.count,
      lastTickAt: this.lastTick === null ? null : new Date(this.lastTick.at).toISOString(),
      reconnectAttempts: this.upstream.attempts,
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
    const ticker = this.ticker;
    if (ticker) await this.upstream.tend(() => this.symbolOf(ticker), this.events(ticker));
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
      stored = await hasActiveSubscription(this.deps.db, ticker);
    } catch (err) {
      console.warn("restart: the stored subscription could not be read, resuming", ticker, String(err));
    }
    if (!stored) await this.stop();
    return stored;
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    this.clients.answer(ws, message);
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeQuietly(ws, code === 1005 || code === 1006 ? 1000 : code, reason);
    await this.admission.giveBack(ws);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    await this.admission.giveBack(ws);
  }

  private async openUpstream(): Promise<void> {
    const ticker = this.ticker;
    if (!this.streaming || !ticker) return;
    await this.upstream.open(() => this.symbolOf(ticker), this.events(ticker));
  }

  /** The provider's symbol of the ticker, from its catalogue listing's venue (read once). */
  private async symbolOf(ticker: string): Promise<string> {
    if (this.listing === undefined) {
      const chosen = preferredListing(await findActiveListings(this.deps.db, { ticker }));
      this.listing = chosen ? { id: chosen.id, exchange: chosen.exchange, currency: chosen.currency } : null;
    }
    return streamSymbolOf(ticker, this.listing?.exchange ?? null);
  }

  private events(ticker: string): UpstreamEvents {
    return {
      onBar: (bar) => this.onBar(ticker, bar),
      onFatal: (message) => void this.onFatal(ticker, message),
      onDrift: (drifts) => void this.writer.recordDrift(ticker, drifts),
      onResolved: () => {
        this.resolved = true;
        this.waiters.settle({ state: "streaming" });
      },
    };
  }

  /** The provider refused the symbol: the clients are told, the stream stops, and the stored subscription is deactivated so the cron does not restore it. */
  private async onFatal(ticker: string, message: string): Promise<void> {
    const now = this.clock.now();
    this.clients.broadcast(serverMessage("error", ticker, null, message, now));
    this.error = message;
    // Recorded before anyone hears of it (the waiting starts, the clients' close), so that
    // /realtime/status and the stored subscription say it by then.
    await registryOf(this.env.STREAM_REGISTRY)
      .refuse(ticker, message, now.getTime())
      .catch((err: unknown) => console.warn("recording a refused symbol failed", ticker, String(err)));
    await deactivateSubscription(this.deps.db, ticker).catch((err: unknown) =>
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
    this.clients.broadcast(serverMessage("tick", ticker, tick, null, now));
    this.writer.record(ticker, tick, bar, this.listing ?? null, now);
  }
}
