/**
 * A symbol's intraday path for the stream simulator: 1-minute bars from the last daily close,
 * a small random walk per update. A bar is `[time (epoch s, minute start), open, high, low, close, volume]`.
 */
export type MinuteBar = [number, number, number, number, number, number];

const round2 = (x: number) => Math.round(x * 100) / 100;

export class MinutePath {
  private price: number;
  private current: MinuteBar | undefined;
  private seed: number;

  constructor(symbol: string, lastClose: number) {
    this.price = lastClose;
    let h = 2166136261;
    for (let i = 0; i < symbol.length; i++) h = Math.imul(h ^ symbol.charCodeAt(i), 16777619);
    this.seed = h >>> 0 || 1;
  }

  private random(): number {
    this.seed = (this.seed * 16807) % 2147483647;
    return this.seed / 2147483647;
  }

  /** Moves the price one step and folds it into the bar of `nowMs`'s minute (a new bar when the minute turns). */
  update(nowMs: number): MinuteBar {
    const minute = Math.floor(nowMs / 60_000) * 60;
    this.price = round2(Math.max(0.5, this.price * (1 + (this.random() - 0.5) * 0.002)));
    const volume = Math.round(100 + this.random() * 5000);
    if (!this.current || this.current[0] !== minute) {
      this.current = [minute, this.price, this.price, this.price, this.price, volume];
    } else {
      const b = this.current;
      this.current = [minute, b[1], Math.max(b[2], this.price), Math.min(b[3], this.price), this.price, b[5] + volume];
    }
    return [...this.current];
  }

  /** The `count` minute bars ending with the current minute, as a history frame gives them. */
  history(nowMs: number, count: number): MinuteBar[] {
    const out: MinuteBar[] = [];
    for (let k = count - 1; k >= 0; k--) {
      const t = nowMs - k * 60_000;
      // A few steps per minute, so each historical bar has a range.
      for (let j = 0; j < 3; j++) this.update(t);
      out.push(this.update(t));
    }
    return out;
  }
}
