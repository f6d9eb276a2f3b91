import { DurableObject } from "cloudflare:workers";
import { systemClock } from "../src/clock";

/**
 * The request slots of one provider (one instance per provider name) for the work that must stay
 * under the provider's limits in total, whichever consumer or isolate does it: the catalogue
 * refresh. Slots are handed out one after another, `intervalMs` apart; a caller waits until its
 * slot. A single instance answers every caller in turn, so no two slots are ever closer than the
 * interval. The schedule lives in memory: an evicted pacer starts a fresh one, which at worst lets
 * one slot come early.
 */
export class ProviderPacer extends DurableObject {
  #nextFreeMs = 0;

  /**
   * Takes the next slot and answers how long to wait for it (0 when the provider is idle). Pacing is
   * about physical time, so the machine's clock, not a pinned one, spaces the slots.
   */
  async take(intervalMs: number): Promise<number> {
    const now = systemClock.now().getTime();
    const slot = Math.max(now, this.#nextFreeMs);
    this.#nextFreeMs = slot + Math.max(0, intervalMs);
    return slot - now;
  }
}
