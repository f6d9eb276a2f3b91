import type { Db } from "../../src/db/client";
import {
  countOutOfSession,
  countTick,
  type IntradayCandle,
  upsertIntradayCandle,
} from "../../src/db/repositories/realtime";
import type { Deps } from "../../src/deps";
import { toDecimalString } from "../../src/domain/decimal";
import type { SchemaDrift } from "../../src/domain/drift";
import { catalogueVenue, inSession } from "../../src/domain/market-hours";
import { STREAM } from "../../src/domain/provider-names";
import { liveScale } from "../../src/domain/provider-symbols";
import type { RealtimeTick } from "../../src/domain/realtime";
import { cacheKeys, cacheTtls } from "../../src/platform/cache";
import type { LiveBar } from "../../src/providers/stream/live";
import { recordDrifts } from "../../src/services/monitoring/record-drifts";

/** The catalogue listing a streamed ticker stores its candles under (null: not in the catalogue). */
export interface StreamListing {
  id: number;
  exchange: string | null;
  currency: string;
}

/** Database effects waiting for the next write. */
interface Pending {
  /** The newest candle of each minute. */
  candles: Map<number, IntradayCandle>;
  ticks: number;
  lastAt: Date | null;
  /** Candles left unstored for falling outside the venue's session. */
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

/**
 * What a candle of `listing` is: stored (in the listing's currency, as its daily bars are: a London
 * pence line's ticks are in pence), outside the venue's session (a weekend, before the open: no
 * trade of it, counted and not stored), or neither (no listing, or a unit that cannot be told).
 */
export function placeCandle(
  listing: StreamListing | null,
  tick: RealtimeTick,
  bar: LiveBar,
): { kind: "stored"; candle: IntradayCandle } | { kind: "out_of_session"; minute: Date } | null {
  if (!listing) return null;
  const minute = new Date(tick.timestamp);
  const venue = catalogueVenue(listing.exchange);
  if (venue && !inSession(venue, minute)) return { kind: "out_of_session", minute };
  const scale = liveScale(bar.currency, listing.currency);
  if (scale === null) return null;
  const price = (x: string) => (scale === 1 ? x : toDecimalString(Number(x) * scale, 8));
  return {
    kind: "stored",
    candle: {
      minute,
      open: price(tick.open),
      high: price(tick.high),
      low: price(tick.low),
      close: price(tick.close),
      volume: tick.volume,
    },
  };
}

/**
 * The spec's worker effects of each tick of a ticker: the last tick in the cache (its quote TTL)
 * and published on price:{TICKER}, one tick after another so a slow write never reorders them; the
 * candle upserted into prices_intraday for a catalogue listing and the tick counted on the stored
 * subscription, batched: ticks arriving during a write wait for the next one, so a slow database
 * costs one write per round trip, not one per tick.
 */
export class TickWriter {
  private effects: Promise<void> = Promise.resolve();
  private pending: Pending = emptyPending();
  private writing: Promise<void> | null = null;

  constructor(private readonly deps: Deps) {}

  /** A bar of another shape: left out, and recorded as schema_drift (once a day per place: recordDrifts keeps count). */
  async recordDrift(ticker: string, drifts: SchemaDrift[]): Promise<void> {
    this.deps.journal.drifts.report(ticker, drifts);
    await recordDrifts(this.deps).catch((err: unknown) =>
      console.warn("stream drift not recorded", ticker, String(err)),
    );
  }

  record(ticker: string, tick: RealtimeTick, bar: LiveBar, listing: StreamListing | null, now: Date): void {
    this.effects = this.effects
      .then(() => this.cacheEffects(ticker, tick))
      .catch((err: unknown) =>
        console.warn("tick cache effects failed", ticker, err instanceof Error ? err.message : String(err)),
      );
    const placed = placeCandle(listing, tick, bar);
    if (placed?.kind === "out_of_session") {
      this.pending.outOfSession += 1;
      this.pending.lastOutOfSession = placed.minute;
    } else if (placed?.kind === "stored") {
      this.pending.candles.set(placed.candle.minute.getTime(), placed.candle);
    }
    this.pending.ticks += 1;
    this.pending.lastAt = now;
    this.writeSoon(ticker, listing);
  }

  private async cacheEffects(ticker: string, tick: RealtimeTick): Promise<void> {
    const { cache, config } = this.deps;
    await cache.set(cacheKeys.quote(ticker), tick, cacheTtls(config).quote);
    await cache.publish(cacheKeys.priceChannel(ticker), tick);
  }

  private writeSoon(ticker: string, listing: StreamListing | null): void {
    if (this.writing) return;
    this.writing = this.writePending(ticker, listing)
      .catch((err: unknown) =>
        console.warn("tick writes failed", ticker, err instanceof Error ? err.message : String(err)),
      )
      .finally(() => {
        this.writing = null;
        if (this.pending.ticks > 0) this.writeSoon(ticker, listing);
      });
  }

  /**
   * Over SQL-over-HTTP only (no transaction): an object lives for hours, and a pool kept open across
   * events would die with the isolate's sockets.
   */
  private async writePending(ticker: string, listing: StreamListing | null): Promise<void> {
    const { candles, ticks, lastAt, outOfSession, lastOutOfSession } = this.pending;
    this.pending = emptyPending();
    const db: Db = this.deps.db;
    if (listing) for (const candle of candles.values()) await upsertIntradayCandle(db, listing.id, candle, STREAM);
    if (lastAt) await countTick(db, ticker, lastAt, ticks);
    if (lastOutOfSession) await countOutOfSession(db, ticker, lastOutOfSession, outOfSession);
  }
}
