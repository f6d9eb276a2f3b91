import type { Clock } from "../../src/clock";
import type { SchemaDrift } from "../../src/domain/drift";
import { reconnectDelayMs } from "../../src/domain/realtime";
import { type LiveBar, LiveSeries } from "../../src/providers/stream/live";

/** What the provider's connection tells the object. */
export interface UpstreamEvents {
  onBar(bar: LiveBar): void;
  /** The provider refused the symbol: reconnecting would not help. */
  onFatal(message: string): void;
  /** A bar of another shape was left out. */
  onDrift(drifts: SchemaDrift[]): void;
  /** The provider took the symbol, on a connection that is still wanted. */
  onResolved(): void;
}

export interface UpstreamOptions {
  url: string;
  connectTimeoutMs: number;
  /** Nothing received for this long: the connection has stalled and is reopened. */
  stallMs: number;
  clock: Clock;
}

/**
 * The stream provider's connection of one ticker's object: at most one open or opening at a time.
 * A drop is retried with backoff and a live connection is watched for stalls, both through the
 * object's alarm (the one alarm of the object is this connection's). `wanted` says whether the
 * object still streams: a connection that completes when it no longer does closes itself.
 */
export class UpstreamConnection {
  private live: LiveSeries | undefined;
  private connecting = false;
  /** Bumped by every close(): a connection that completes after it belongs to no one. */
  private generation = 0;
  /** Reconnections since the last connection that held. */
  attempts = 0;

  constructor(
    private readonly storage: DurableObjectStorage,
    /** Read at each use: the object's settings (a test points one object at another address). */
    private readonly options: () => UpstreamOptions,
    private readonly wanted: () => boolean,
  ) {}

  get connected(): boolean {
    return this.live !== undefined;
  }

  /**
   * Opens a connection unless one is open or opening. `symbolOf` names the provider's symbol (it may
   * read the database): a failure there is retried as a failed connection is.
   */
  async open(symbolOf: () => Promise<string>, events: UpstreamEvents): Promise<void> {
    if (this.live || this.connecting) return;
    this.connecting = true;
    const opts = this.options();
    const generation = this.generation;
    try {
      let live: LiveSeries | undefined;
      live = await LiveSeries.open(
        opts.url,
        await symbolOf(),
        {
          onBar: events.onBar,
          onDrift: events.onDrift,
          onFatal: (err) => {
            if (this.live === live) this.live = undefined;
            events.onFatal(err.message);
          },
          onResolved: () => {
            if (generation === this.generation) events.onResolved();
          },
          onClosed: () => {
            // A connection that closes before it was adopted is handled below; an older one is nobody's.
            if (live === undefined || this.live !== live) return;
            this.live = undefined;
            void this.scheduleReconnect();
          },
        },
        { connectTimeoutMs: opts.connectTimeoutMs, clock: opts.clock },
      );
      // close() ran while we were connecting: this connection belongs to no one.
      if (generation !== this.generation || !this.wanted()) {
        live.close();
        return;
      }
      if (live.isClosed) {
        await this.scheduleReconnect();
        return;
      }
      this.live = live;
      this.attempts = 0;
      await this.watch();
    } catch (err) {
      console.warn("stream connect failed", err instanceof Error ? err.message : String(err));
      if (generation === this.generation) await this.scheduleReconnect();
    } finally {
      this.connecting = false;
    }
  }

  /** Closes the connection and disowns any still opening. */
  close(): void {
    this.generation += 1;
    this.live?.close();
    this.live = undefined;
  }

  /**
   * The alarm's turn: a connection silent for `stallMs` is closed and reopened, a live one watched
   * again, a missing one opened.
   */
  async tend(symbolOf: () => Promise<string>, events: UpstreamEvents): Promise<void> {
    const { clock, stallMs } = this.options();
    if (this.live && clock.now().getTime() - this.live.lastFrameAt > stallMs) {
      console.warn("stream stalled, reopening", this.live.symbol);
      this.live.close();
      this.live = undefined;
    }
    if (!this.live) await this.open(symbolOf, events);
    else await this.watch();
  }

  private async watch(): Promise<void> {
    const { clock, stallMs } = this.options();
    await this.storage.setAlarm(clock.now().getTime() + Math.max(500, stallMs / 2));
  }

  private async scheduleReconnect(): Promise<void> {
    if (!this.wanted()) return;
    this.attempts += 1;
    const { clock } = this.options();
    await this.storage.setAlarm(clock.now().getTime() + reconnectDelayMs(this.attempts, Math.random()));
  }
}
