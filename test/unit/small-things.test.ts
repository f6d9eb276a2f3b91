import { describe, expect, it } from "vitest";
import { backoff } from "../../src/domain/backoff";
import { retryDelaySeconds } from "../../src/domain/catalogue-refresh";
import { addDays, isoDay, isoInstant } from "../../src/domain/instants";
import { parseNumberText, unboxNumber } from "../../src/domain/numbers";
import { reconnectDelayMs } from "../../src/domain/realtime";
import { usageRetryDelaySeconds } from "../../src/services/usage/consume-usage";

/** The one home of each small rule (numbers, days, back-off), and the callers that share it. */
describe("one home per small thing", () => {
  it("waits longer after each failure, up to a cap, by one rule", () => {
    expect([1, 2, 3, 4, 5].map((n) => backoff(n, { first: 30, factor: 3, cap: 3600 }))).toEqual([
      30, 90, 270, 810, 2430,
    ]);
    expect(backoff(9, { first: 30, factor: 3, cap: 3600 })).toBe(3600);
    expect(backoff(0, { first: 10, factor: 2, cap: 1800 })).toBe(10);
    // The three callers: the refresh's retries, the usage queue's, the stream's reconnects (middle of its jitter).
    expect([1, 2, 3, 9].map((n) => retryDelaySeconds(n, 30))).toEqual([30, 90, 270, 3600]);
    expect([1, 2, 3, 10].map(usageRetryDelaySeconds)).toEqual([10, 20, 40, 1800]);
    expect([1, 2, 7, 8].map((n) => reconnectDelayMs(n, 0.5))).toEqual([1000, 2000, 60_000, 60_000]);
    // Ten usage retries span about 1 h 40 min, as the consumer's comment says.
    const span = Array.from({ length: 10 }, (_, i) => usageRetryDelaySeconds(i + 1)).reduce((a, b) => a + b, 0);
    expect(span).toBe(6150);
  });

  it("writes days and instants one way", () => {
    expect(isoDay(new Date("2026-11-29T23:59:59.999Z"))).toBe("2026-11-29");
    expect(isoInstant(new Date("2026-11-25T14:30:00Z"))).toBe("2026-11-25T14:30:00Z");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });

  it("reads a provider's numbers: bare or boxed, and written as text", () => {
    expect([unboxNumber(1.5), unboxNumber({ raw: 2.25, fmt: "2.25" }), unboxNumber({ raw: { raw: 3 } })]).toEqual([
      1.5, 2.25, 3,
    ]);
    expect([unboxNumber(Number.NaN), unboxNumber("4"), unboxNumber({ fmt: "4" }), unboxNumber(null)]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect([parseNumberText("1,250.5"), parseNumberText("0"), parseNumberText("n/a"), parseNumberText(null)]).toEqual([
      1250.5,
      0,
      null,
      null,
    ]);
  });
});
