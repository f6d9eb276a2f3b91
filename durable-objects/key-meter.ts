import { DurableObject } from "cloudflare:workers";
import { type RateVerdict, type RateWindow, spendFrom } from "../src/domain/rate-window";

/** Sockets one key may hold at once, over all tickers: one key cannot take the realtime capacity from the rest. */
export const MAX_SOCKETS_PER_KEY = 1000;

const LEASE = "lease:";

/**
 * One per key (named by its fingerprint) and one per client address for made-up keys: counts the
 * key's requests in the current minute (what the RateLimit headers tell), and holds a lease per
 * open socket of the key, whichever ticker it is on. The count lives in memory (an evicted meter
 * starts a fresh window); the leases live in the object's storage, since sockets outlive an idle
 * object (read into memory once). A lease a ticker's object failed to give back is found out when the cap is reached: the
 * tickers holding leases are asked which of them are still open.
 */
export class KeyMeter extends DurableObject<Env> {
  #window: RateWindow | null = null;
  /** The storage's leases (name → ticker), read once per life of the object. */
  #leases: Map<string, string> | null = null;

  private async leases(): Promise<Map<string, string>> {
    this.#leases ??= await this.ctx.storage.list<string>({ prefix: LEASE });
    return this.#leases;
  }

  /** Spends one request of `limit` at `nowMs` (the Worker's clock, so a pinned clock pins this too). */
  spend(limit: number, nowMs: number): RateVerdict {
    const { window, verdict } = spendFrom(this.#window, limit, nowMs);
    this.#window = window;
    return verdict;
  }

  /**
   * Takes a lease for a socket of `client` on `ticker`: null when taken, else the sockets the key
   * already holds (`cap` is reached).
   */
  async openSocket(client: string, lease: string, ticker: string, cap = MAX_SOCKETS_PER_KEY): Promise<number | null> {
    const leases = await this.leases();
    if (leases.size >= cap) await this.reconcile(client, leases);
    if (leases.size >= cap) return leases.size;
    leases.set(`${LEASE}${lease}`, ticker);
    await this.ctx.storage.put(`${LEASE}${lease}`, ticker);
    return null;
  }

  async closeSocket(lease: string): Promise<void> {
    (await this.leases()).delete(`${LEASE}${lease}`);
    await this.ctx.storage.delete(`${LEASE}${lease}`);
  }

  /** Keeps the leases whose sockets their tickers still hold; a ticker that does not answer keeps its leases. */
  private async reconcile(client: string, leases: Map<string, string>): Promise<void> {
    const streams = this.env.TICKER_STREAM;
    if (!streams) return;
    const byTicker = new Map<string, string[]>();
    for (const [name, ticker] of leases) byTicker.set(ticker, [...(byTicker.get(ticker) ?? []), name]);
    const gone: string[] = [];
    for (const [ticker, names] of byTicker) {
      try {
        const open = new Set(await streams.get(streams.idFromName(ticker)).openLeases(client));
        for (const name of names) if (!open.has(name.slice(LEASE.length))) gone.push(name);
      } catch (err) {
        console.warn("socket leases not checked", ticker, String(err));
      }
    }
    for (const name of gone) leases.delete(name);
    for (let i = 0; i < gone.length; i += 128) await this.ctx.storage.delete(gone.slice(i, i + 128));
  }
}
