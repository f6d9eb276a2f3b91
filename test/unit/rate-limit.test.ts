import { describe, expect, it } from "vitest";
import { RATE_WINDOW_SECONDS, spendFrom } from "../../src/domain/rate-window";

/** 2026-06-01T15:00:00Z: a minute's start. */
const MINUTE = Date.UTC(2026, 5, 1, 15, 0, 0);

describe("a key's request window", () => {
  it("counts requests in the clock's minute, refuses past the limit without spending, and resets on the next minute", () => {
    let window = null;
    const seen = [];
    for (const at of [MINUTE + 10_000, MINUTE + 20_000, MINUTE + 30_500, MINUTE + 59_999]) {
      const spent = spendFrom(window, 2, at);
      window = spent.window;
      seen.push(spent.verdict);
    }
    expect(seen).toEqual([
      { allowed: true, limit: 2, remaining: 1, resetSeconds: 50 },
      { allowed: true, limit: 2, remaining: 0, resetSeconds: 40 },
      { allowed: false, limit: 2, remaining: 0, resetSeconds: 30 },
      { allowed: false, limit: 2, remaining: 0, resetSeconds: 1 },
    ]);
    expect(window).toEqual({ start: MINUTE, used: 2 });
    const next = spendFrom(window, 2, MINUTE + RATE_WINDOW_SECONDS * 1000);
    expect(next.verdict).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
    expect(next.window).toEqual({ start: MINUTE + 60_000, used: 1 });
  });

  it("never goes back to an earlier window: a request stamped by a clock behind counts in the current one", () => {
    const current = { start: MINUTE, used: 2 };
    const behind = spendFrom(current, 2, MINUTE - 500);
    expect(behind.verdict.allowed).toBe(false);
    expect(behind.window).toEqual({ start: MINUTE, used: 2 });
  });

  it("takes a lowered limit at once: a key over its new limit is refused for the rest of the minute", () => {
    const used = { start: MINUTE, used: 5 };
    expect(spendFrom(used, 3, MINUTE + 1000).verdict).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetSeconds: 59,
    });
  });
});
