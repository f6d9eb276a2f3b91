import { DurableObject } from "cloudflare:workers";
import { DAY_MS } from "../src/domain/instants";
import type { Refusal } from "../src/domain/realtime";

/** How long a refusal is told in /realtime/status. */
const REFUSAL_KEPT_MS = DAY_MS;
/** Refusals kept at most: each costs a full-access key a subscription, but none is kept without bound. */
const MAX_REFUSALS = 200;

/**
 * The set of streamed tickers (one instance, named "registry"): each TickerStream adds itself when
 * it starts and removes itself when it stops, so /realtime/status can ask each of them. It also
 * keeps the day's refusals of the stream provider (a refused ticker has stopped streaming).
 */
export class StreamRegistry extends DurableObject {
  /** `since`: when the stream started (epoch ms, on the caller's clock). A refusal of it is forgotten. */
  async add(ticker: string, since: number): Promise<void> {
    await this.ctx.storage.put(`t:${ticker}`, since);
    await this.ctx.storage.delete(`r:${ticker}`);
  }

  async remove(ticker: string): Promise<void> {
    await this.ctx.storage.delete(`t:${ticker}`);
  }

  /** Whether `ticker` is streamed: asked before a read-only socket reaches (and so creates) a ticker's object. */
  async has(ticker: string): Promise<boolean> {
    return (await this.ctx.storage.get(`t:${ticker}`)) !== undefined;
  }

  async list(): Promise<string[]> {
    const entries = await this.ctx.storage.list({ prefix: "t:" });
    return [...entries.keys()].map((k) => k.slice(2)).sort();
  }

  /** Records that the provider refused `ticker` (at `at`, epoch ms); the oldest beyond MAX_REFUSALS go. */
  async refuse(ticker: string, reason: string, at: number): Promise<void> {
    await this.ctx.storage.put(`r:${ticker}`, { ticker, reason, at } satisfies Refusal);
    const all = await this.ctx.storage.list<Refusal>({ prefix: "r:" });
    if (all.size <= MAX_REFUSALS) return;
    const oldest = [...all.entries()].sort((a, b) => a[1].at - b[1].at).slice(0, all.size - MAX_REFUSALS);
    await this.ctx.storage.delete(oldest.map(([k]) => k));
  }

  /** The refusals of the day before `now` (epoch ms, the caller's clock), by ticker. */
  async refusals(now: number): Promise<Refusal[]> {
    const all = await this.ctx.storage.list<Refusal>({ prefix: "r:" });
    return [...all.values()]
      .filter((r) => now - r.at <= REFUSAL_KEPT_MS)
      .sort((a, b) => a.ticker.localeCompare(b.ticker));
  }
}
