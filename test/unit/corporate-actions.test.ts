import { describe, expect, it } from "vitest";
import {
  adjustmentMismatches,
  dividendsByYear,
  readjustmentRange,
  splitRatio,
} from "../../src/domain/corporate-actions";
import { float32Decimal } from "../../src/domain/provider-precision";
import recorded from "../fixtures/recorded/delayed_provider/chart-AAPL-2020-09-to-11-split-div.json";
import nvdaRecorded from "../fixtures/recorded/delayed_provider/chart-NVDA-2021-split-4-1.json";

/** The real provider's AAPL chart of autumn 2020 (a 4:1 split on 31 August, a dividend on 6 November). */
const result = recorded.response.body.chart.result[0] as {
  timestamp: number[];
  indicators: { quote: { close: number[] }[]; adjclose: { adjclose: number[] }[] };
  events: {
    dividends: Record<string, { amount: number; date: number }>;
    splits: Record<string, { date: number; numerator: number; denominator: number }>;
  };
};
const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
const bars = result.timestamp.map((t, i) => ({
  date: day(t),
  close: result.indicators.quote[0]?.close[i] as number,
  adjClose: result.indicators.adjclose[0]?.adjclose[i] as number,
}));
const dividends = Object.values(result.events.dividends).map((d) => ({ date: day(d.date), amount: d.amount }));
const splits = Object.values(result.events.splits).map((s) => ({
  date: day(s.date),
  numerator: s.numerator,
  denominator: s.denominator,
}));

describe("adjustmentMismatches, on the real provider's answer", () => {
  it("finds its adjusted closes consistent with its dividend and split", () => {
    expect(dividends).toEqual([{ date: "2020-11-06", amount: 0.205 }]);
    expect(splits.map(splitRatio)).toEqual(["4:1"]);
    expect(bars).toHaveLength(49);
    expect(adjustmentMismatches(bars, dividends, splits)).toEqual([]);
  });

  it("finds the session of a dividend it was not told of, unexplained, with the step the bars show", () => {
    const found = adjustmentMismatches(bars, [], splits);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ date: "2020-11-06", kind: "unexplained", expected: 1 });
    // 1 - 0.205 / 119.03 (the close before the ex-date): the provider's own factor.
    expect(found[0]?.observed).toBeCloseTo(1 - 0.205 / 119.02999877929688, 6);
  });

  it("finds a series whose closes before a split were not adjusted for it", () => {
    // Before the split the unadjusted share traded at four times the price.
    const before = {
      date: "2020-08-28",
      close: 499.23,
      adjClose: (499.23 * (bars[0]?.adjClose ?? 0)) / (bars[0]?.close ?? 1),
    };
    const found = adjustmentMismatches([before, ...bars], dividends, splits);
    expect(found.map((m) => [m.date, m.kind])).toEqual([["2020-08-31", "split"]]);
    expect(found[0]?.observed).toBeCloseTo(499.23 / 129.0399932861328, 6);
    // Adjusted, the same session is no jump.
    const adjusted = { ...before, close: 499.23 / 4, adjClose: before.adjClose / 4 };
    expect(adjustmentMismatches([adjusted, ...bars], dividends, splits)).toEqual([]);
  });
});

describe("adjustmentMismatches across a session it does not hold", () => {
  // The provider adjusted by the close of 4 March (100), a session the service has no bar of; its
  // previous stored close is 3 March's 95: a 1% dividend then computes 5% off its own size.
  const factor = 1 - 1 / 100;
  const gapped = [
    { date: "2024-03-01", close: 95, adjClose: 95 * factor * 0.99 },
    { date: "2024-03-05", close: 101, adjClose: 101 * 0.99 },
  ];

  it("allows a tenth of the dividend's own step", () => {
    expect(adjustmentMismatches(gapped, [{ date: "2024-03-05", amount: 1 }], [])).toEqual([]);
  });

  it("still finds a dividend wrong by far, or one it was not told of", () => {
    expect(adjustmentMismatches(gapped, [{ date: "2024-03-05", amount: 2 }], [])).toHaveLength(1);
    expect(adjustmentMismatches(gapped, [], [])).toHaveLength(1);
  });
});

describe("readjustmentRange", () => {
  const stored = { first: "2016-11-28", last: "2026-11-09" };

  it("covers the stored bars before the newest new event after the first stored bar", () => {
    expect(readjustmentRange(stored, ["2026-11-16"])).toEqual({ from: "2016-11-28", to: "2026-11-09" });
    expect(readjustmentRange(stored, ["2026-08-17", "2026-05-15"])).toEqual({ from: "2016-11-28", to: "2026-08-16" });
  });

  it("is null without stored bars or a new event after them", () => {
    expect(readjustmentRange(null, ["2026-11-16"])).toBeNull();
    expect(readjustmentRange(stored, [])).toBeNull();
    expect(readjustmentRange(stored, ["2016-11-15"])).toBeNull();
  });
});

describe("dividendsByYear", () => {
  it("counts dividends by the year of their ex-date", () => {
    expect(
      dividendsByYear([
        { date: "2025-02-18", amount: 0.25 },
        { date: "2025-05-15", amount: 0.26 },
        { date: "2026-02-16", amount: 0.26 },
      ]),
    ).toEqual({ "2025": 2, "2026": 1 });
  });

  it("leaves out a year the stored prices cover only in part", () => {
    const divs = [
      { date: "2016-11-15", amount: 0.2 },
      { date: "2017-02-15", amount: 0.2 },
    ];
    expect(dividendsByYear(divs, "2016-11-28")).toEqual({ "2017": 1 });
    expect(dividendsByYear(divs, "2016-01-04")).toEqual({ "2016": 1, "2017": 1 });
  });
});

describe("adjustmentMismatches, its tolerance from the stored prices' precision", () => {
  /** The real provider's NVDA chart of 2021 (a 4:1 split on 20 July; asked with events=split, so without its dividends). */
  const nvda = nvdaRecorded.response.body.chart.result[0] as unknown as typeof result;
  const nvdaBars = nvda.timestamp.map((t, i) => ({
    date: day(t),
    close: float32Decimal(nvda.indicators.quote[0]?.close[i] as number),
    adjClose: float32Decimal(nvda.indicators.adjclose[0]?.adjclose[i] as number),
  }));
  const nvdaSplits = [{ date: "2021-07-20", numerator: 4, denominator: 1 }];
  /**
   * NVDA's real quarterly dividends of 2021 (ex-dates 9 March and 9 June: $0.16 before the 4:1
   * split; 31 August and 1 December: $0.04), in the recording's prices, which its 10:1 split of
   * 2024 divides as well: 0.004 each.
   */
  const nvdaDividends = ["2021-03-09", "2021-06-09", "2021-08-31", "2021-12-01"].map((date) => ({
    date,
    amount: 0.004,
  }));

  it("holds the real chart at full precision: consistent with its real dividends and split", () => {
    expect(nvdaBars).toHaveLength(252);
    expect(nvdaBars[0]?.close).toBe(13.237);
    expect(adjustmentMismatches(nvdaBars, nvdaDividends, nvdaSplits, "full")).toEqual([]);
  });

  it("names the four ex-dates the recording was not asked for, and nothing else, unexplained", () => {
    const found = adjustmentMismatches(nvdaBars, [], nvdaSplits, "full");
    expect(found.map((m) => [m.date, m.kind])).toEqual(nvdaDividends.map((d) => [d.date, "unexplained"]));
    for (const m of found) expect(m.tolerance).toBeLessThan(5e-6);
  });

  it("rounded to the price hint, the same bars stay consistent only because the tolerance widens with the rounding", () => {
    const hinted = nvdaBars.map((b) => ({
      ...b,
      close: Math.round(b.close * 100) / 100,
      adjClose: Number(b.adjClose.toPrecision(7)),
    }));
    // Held to full precision, the rounding reads as steps at most sessions (the quant's false alarms).
    expect(adjustmentMismatches(hinted, nvdaDividends, nvdaSplits, "full").length).toBeGreaterThan(100);
    expect(adjustmentMismatches(hinted, nvdaDividends, nvdaSplits, "price_hint")).toEqual([]);
  });
});
