import { DurableObject } from "cloudflare:workers";
import { type RateVerdict, type RateWindow, spendFrom } from "../src/domain/rate-window";
import { deleteKeys } from "./storage-keys";

/** Sockets one key may hold at once, over all tickers: one key cannot take the realtime capacity from the rest. */
export const MAX_SOCKETS_PER_KEY = 1000;
/** A lease younger than this is never dropped: its socket may still be on its way (a stream starting). */
const LEASE_GRACE_MS = 60_000;
/** The tickers are asked about lost leases at most this often per key. */
const RECONCILE_EVERY_MS = 30_000;
/** Tickers asked at once while reconciling. */
const RECONCILE_BATCH = 50;

const LEASE = "lease:";

interface Lease {
  ticker: string;
  /** Epoch ms the lease was taken (the Worker's clock). */
  at: number;
}

/**
 * One per key (named by its fingerprint) and one per client address for keys not yet read: counts
 * the key's requests in the current minute (what the RateLimit headers tell), and holds a lease per
 * open socket of the key, whichever ticker it is on. The count lives in memory (an evicted meter
 * starts a fresh window); the leases live in the object's storage, since sockets outlive an idle
 * object (read into memory once). A lease a ticker's object failed to give back is found out when
 * the cap is reached: the tickers holding leases older than a minute are asked which are still
 * open, at most every 30 seconds.
 */
export class KeyMeter extends DurableObject<Env> {
  #window: RateWindow | null = null;
  #leases: Map<string, Lease> | null = null;
  #reconciledAt = 0;
  #reconciling: Promise<void> | null = null;

  private async leases(): Promise<Map<string, Lease>> {
    this.#leases ??= await this.ctx.storage.list<Lease>({ prefix: LEASE });
    return this.#leases;
  }

  /** Spends one request of `limit` at `nowMs` (the Worker's clock, so a pinned clock pins this too). */
  spend(limit: number, nowMs: number): RateVerdict {
    const { window, verdict } = spendFrom(this.#window, limit, nowMs);
    this.#window = window;
    return verdict;
  }

  /**
   * Takes a lease for a socket of `client` on `ticker` at `nowMs`: null when taken, else the sockets
   * the key already holds (`cap` is reached).
   */
  async openSocket(
    client: string,
    lease: string,
    ticker: string,
    nowMs: number,
    cap = MAX_SOCKETS_PER_KEY,
  ): Promise<number | null> {
    const leases = await this.leases();
    if (leases.size >= cap && nowMs - this.#reconciledAt >= RECONCILE_EVERY_MS) {
      // One reconciliation at a time: handshakes arriving meanwhile wait for it.
      this.#reconciling ??= this.reconcile(client, leases, nowMs).finally(() => {
        this.#reconciledAt = nowMs;
        this.#reconciling = null;
      });
      await this.#reconciling;
    }
    if (leases.size >= cap) return leases.size;
    const taken = { ticker, at: nowMs };
    leases.set(`${LEASE}${lease}`, taken);
    await this.ctx.storage.put(`${LEASE}${lease}`, taken);
    return null;
  }

  async closeSocket(lease: string): Promise<void> {
    (await this.leases()).delete(`${LEASE}${lease}`);
    await this.ctx.storage.delete(`${LEASE}${lease}`);
  }

  /**
   * Drops the leases older than LEASE_GRACE_MS whose tickers no longer hold their sockets; a ticker
   * that does not answer keeps its leases.
   */
  private async reconcile(client: string, leases: Map<string, Lease>, nowMs: number): Promise<void> {
    const streams = this.env.TICKER_STREAM;
    if (!streams) return;
    const byTicker = new Map<string, string[]>();
    for (const [name, l] of leases)
      if (nowMs - l.at >= LEASE_GRACE_MS) byTicker.set(l.ticker, [...(byTicker.get(l.ticker) ?? []), name]);
    const gone: string[] = [];
    const tickers = [...byTicker];
    for (let i = 0; i < tickers.length; i += RECONCILE_BATCH) {
      await Promise.all(
        tickers.slice(i, i + RECONCILE_BATCH).map(async ([ticker, names]) => {
          try {
            const open = new Set(await streams.get(streams.idFromName(ticker)).openLeases(client));
            for (const name of names) if (!open.has(name.slice(LEASE.length))) gone.push(name);
          } catch (err) {
            console.warn("socket leases not checked", ticker, String(err));
          }
        }),
      );
    }
    for (const name of gone) leases.delete(name);
    await deleteKeys(this.ctx.storage, gone);
  }
}
