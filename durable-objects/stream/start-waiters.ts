import type { StartOutcome } from "../../src/domain/realtime";

/**
 * Starts of a stream waiting to learn whether the provider takes the symbol: each waits until
 * `settle` tells them all, or answers "connecting" when its time is up.
 */
export class StartWaiters {
  private waiting: ((outcome: StartOutcome) => void)[] = [];

  wait(ms: number): Promise<StartOutcome> {
    if (ms <= 0) return Promise.resolve({ state: "connecting" });
    return new Promise((resolve) => {
      const waiter = (o: StartOutcome) => {
        clearTimeout(timer);
        resolve(o);
      };
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w !== waiter);
        resolve({ state: "connecting" });
      }, ms);
      this.waiting.push(waiter);
    });
  }

  settle(outcome: StartOutcome): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w(outcome);
  }
}
