import { DurableObject } from "cloudflare:workers";

/**
 * The set of streamed tickers (one instance, named "registry"): each TickerStream adds itself when
 * it starts and removes itself when it stops, so /realtime/status can ask each of them.
 */
export class StreamRegistry extends DurableObject {
  /** `since`: when the stream started (epoch ms, on the caller's clock). */
  async add(ticker: string, since: number): Promise<void> {
    await this.ctx.storage.put(`t:${ticker}`, since);
  }

  async remove(ticker: string): Promise<void> {
    await this.ctx.storage.delete(`t:${ticker}`);
  }

  async list(): Promise<string[]> {
    const entries = await this.ctx.storage.list({ prefix: "t:" });
    return [...entries.keys()].map((k) => k.slice(2)).sort();
  }
}
