/**
 * What the read-throughs of one answer said about keeping it: the shortest lifetime any of them
 * was cached for, or none when one of them was not cached (a provisional answer, caching turned
 * off). The edge cache keeps an answer no longer than that (middleware/edge-cache).
 */
export class Keeping {
  #seconds: number | null = null;
  #never = false;

  kept(seconds: number): void {
    this.#seconds = this.#seconds === null ? seconds : Math.min(this.#seconds, seconds);
  }

  notKept(): void {
    this.#never = true;
  }

  /** How long the whole answer may be kept; 0 when it may not be (or nothing was read through a cache). */
  get seconds(): number {
    return this.#never || this.#seconds === null ? 0 : this.#seconds;
  }
}
