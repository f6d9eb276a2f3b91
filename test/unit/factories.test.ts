import { describe, expect, it } from "vitest";
import { hasValidCheckDigit } from "../../src/domain/isin";
import { TickerParam } from "../../src/routes/params";
import { makeBars, uniqueIsin, uniqueTicker } from "../helpers/factories";

/** The factories' own promises, which the worker tests lean on without checking them each time. */
describe("test factories", () => {
  it("make identifiers the service accepts, different on every call", () => {
    const isins = Array.from({ length: 200 }, uniqueIsin);
    const tickers = Array.from({ length: 200 }, () => uniqueTicker(".PA"));
    expect(isins.every(hasValidCheckDigit)).toBe(true);
    expect(tickers.every((t) => TickerParam.safeParse(t).success && t.endsWith(".PA"))).toBe(true);
    expect(new Set(isins).size).toBe(200);
    expect(new Set(tickers).size).toBe(200);
  });

  it("make the same weekday series for the same arguments", () => {
    const bars = makeBars(10, { start: "2026-11-28", price: (i) => 10 + i, volume: () => 5 });
    expect(makeBars(10, { start: "2026-11-28", price: (i) => 10 + i, volume: () => 5 })).toEqual(bars);
    // 28 November 2026 is a Saturday: the series starts on the Monday after and skips the next weekend.
    expect(bars.map((b) => b.date)).toEqual([
      "2026-11-30",
      "2026-12-01",
      "2026-12-02",
      "2026-12-03",
      "2026-12-04",
      "2026-12-07",
      "2026-12-08",
      "2026-12-09",
      "2026-12-10",
      "2026-12-11",
    ]);
    expect(bars[3]).toEqual({
      date: "2026-12-03",
      open: 12.5,
      high: 14.25,
      low: 12,
      close: 13,
      adjClose: 12.61,
      volume: 5,
    });
  });
});
