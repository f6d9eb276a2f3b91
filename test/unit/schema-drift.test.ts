import { describe, expect, it } from "vitest";
import {
  earningsRows,
  highlightFigures,
  highlightTexts,
  trendRows,
} from "../../src/domain/fundamentals/delayed-figures";
import { readSummary } from "../../src/domain/fundamentals/summary-schema";
import { readTimeseries } from "../../src/domain/fundamentals/timeseries";
import { validationStatistics } from "../../src/domain/monitoring/validation-stats";
import { collectBars } from "../../src/providers/stream/client";

const P = "delayed_provider";

describe("the service's own reading of quoteSummary", () => {
  it("keeps every well-formed field, unboxes {raw}, and drops a field of another type as drift", () => {
    const { summary, drifts } = readSummary(P, {
      summaryDetail: { trailingPE: "n/a", beta: { raw: 1.25, fmt: "1.25" }, marketCap: 3.1e12, dividendYield: {} },
      earningsTrend: {
        trend: [{ period: "0q", growth: 0.05, earningsEstimate: { avg: 1.6, numberOfAnalysts: "many" } }],
      },
      unknownModule: { anything: [1, 2] },
    });
    expect(drifts).toEqual([
      {
        provider: P,
        document: "quoteSummary",
        path: "summaryDetail.trailingPE",
        expected: "a number",
        seen: 'a string "n/a"',
      },
      {
        provider: P,
        document: "quoteSummary",
        path: "earningsTrend.trend[].earningsEstimate.numberOfAnalysts",
        expected: "a number",
        seen: 'a string "many"',
      },
    ]);
    const figures = Object.fromEntries(highlightFigures(summary).map((f) => [f.field, f.value]));
    expect(figures.pe_ratio).toBeNull();
    expect(figures.beta).toBe(1.25);
    expect(figures.market_cap).toBe(3.1e12);
    expect(figures.dividend_yield).toBeNull();
    expect(trendRows(summary)).toEqual([
      {
        period: "0q",
        endDate: null,
        growth: 0.05,
        epsAvg: 1.6,
        epsLow: null,
        epsHigh: null,
        revenueAvg: null,
        analysts: null,
      },
    ]);
    // Fields it does not read are kept as they came.
    expect(summary.unknownModule).toEqual({ anything: [1, 2] });
  });

  it("refuses dates that are not days, and drops a row without what names it", () => {
    const { summary, drifts } = readSummary(P, {
      defaultKeyStatistics: { mostRecentQuarter: "2024-13-45", lastFiscalYearEnd: 1727654400000 },
      earningsHistory: { history: [{ quarter: { raw: 1727654400 }, epsActual: 1.64 }, { epsActual: 2.4 }] },
    });
    expect(drifts.map((d) => d.path).sort()).toEqual([
      "defaultKeyStatistics.lastFiscalYearEnd",
      "defaultKeyStatistics.mostRecentQuarter",
      "earningsHistory.history[].quarter",
    ]);
    expect(highlightTexts(summary)).toEqual({});
    expect(earningsRows(summary).map((r) => r.quarterEnd)).toEqual(["2024-09-30"]);
  });

  it("turns a module of another shape into one drift and keeps the other modules", () => {
    const { summary, drifts } = readSummary(P, { financialData: [1, 2], price: { regularMarketPrice: 190.5 } });
    expect(drifts.map((d) => [d.path, d.expected, d.seen])).toEqual([["financialData", "an object", "a list of 2"]]);
    expect(summary.financialData).toBeUndefined();
    expect(highlightFigures(summary).find((f) => f.field === "price")?.value).toBe(190.5);
  });
});

describe("the service's own reading of fundamentals-timeseries", () => {
  const series = (key: string, items: unknown[], extra: Record<string, unknown> = {}) => ({
    // Data key first: the provider's key order is not a contract.
    [key]: items,
    meta: { symbol: ["X"], type: [key] },
    timestamp: items.map(() => 1727654400),
    ...extra,
  });
  it("reads zeros, nulls and any key order; a value of another type costs that value", () => {
    const body = {
      timeseries: {
        result: [
          series("annualInterestExpense", [
            { asOfDate: "2024-09-30", periodType: "12M", reportedValue: { raw: 0, fmt: "0" } },
          ]),
          series("annualTotalRevenue", [
            null,
            { asOfDate: "2024-09-30", periodType: "12M", reportedValue: { raw: 391035000000, fmt: "391.04B" } },
          ]),
          series("annualEBIT", [{ asOfDate: "2024-09-30", periodType: "12M", reportedValue: { raw: "123" } }]),
          { meta: { symbol: ["X"], type: ["annualGainOnSaleOfSecurity"] } },
        ],
        error: null,
      },
    };
    const { rows, drifts } = readTimeseries(P, body);
    expect(rows).toEqual([
      { date: new Date("2024-09-30T00:00:00Z"), periodType: "12M", interestExpense: 0, totalRevenue: 391035000000 },
    ]);
    expect(drifts).toEqual([
      {
        provider: P,
        document: "timeseries",
        path: "annualEBIT[].reportedValue.raw",
        expected: "a number",
        seen: 'a string "123"',
      },
    ]);
  });
  it("never takes a day that is not one: an impossible asOfDate falls back to the timestamp, one in milliseconds is drift", () => {
    const body = {
      timeseries: {
        result: [
          {
            meta: { symbol: ["X"], type: ["annualTotalRevenue"] },
            timestamp: [1727654400, 1727654400000],
            annualTotalRevenue: [
              { asOfDate: "2024-13-45", reportedValue: { raw: 1 } },
              { asOfDate: "0000-00-00", reportedValue: { raw: 2 } },
            ],
          },
        ],
      },
    };
    const { rows, drifts } = readTimeseries(P, body);
    expect(rows).toEqual([{ date: new Date("2024-09-30T00:00:00Z"), totalRevenue: 1 }]);
    expect(drifts.map((d) => [d.path, d.seen])).toEqual([["annualTotalRevenue[].asOfDate", 'a string "0000-00-00"']]);
  });

  it("throws only when the answer has no list of series at all", () => {
    expect(() => readTimeseries(P, { timeseries: { result: null } })).toThrow(/no timeseries.result list/);
    expect(readTimeseries(P, { timeseries: { result: [] } }).rows).toEqual([]);
  });
});

describe("drift in the validation statistics", () => {
  it("is counted apart from the values: it moves neither the totals nor the quality score", () => {
    const stats = validationStatistics([
      { provider: P, field: "pe_ratio", status: "valid", n: 3 },
      { provider: P, field: "beta", status: "outlier", n: 1 },
      { provider: P, field: "quoteSummary:earningsTrend.trend[].defaultMethodology", status: "schema_drift", n: 2 },
      { provider: P, field: "timeseries:annualEBIT[].reportedValue.raw", status: "schema_drift", n: 1 },
    ]);
    expect(stats.total_values_validated).toBe(4);
    expect(stats.overall_quality_score).toBe(0.75);
    expect(stats.total_schema_drift).toBe(3);
    expect(stats.schema_drift).toEqual([
      { provider: P, field: "quoteSummary:earningsTrend.trend[].defaultMethodology", count: 2 },
      { provider: P, field: "timeseries:annualEBIT[].reportedValue.raw", count: 1 },
    ]);
  });
});

describe("the stream provider's bars, point by point", () => {
  it("leaves out a point of another shape, keeps the others, and returns the drift", () => {
    const bars = new Map<number, number[]>();
    const drifts = collectBars(
      [
        "cs_x",
        {
          sds_1: {
            s: [
              { i: 0, v: [1767225600, 10, 11, 9, 10.5, 1000] },
              { i: 1, v: [1767312000, 10.5, 12, 10, "11.5", 900] },
              { i: 2, v: [1767398400, 11.5, 12.5, 11, 12, 800] },
            ],
          },
        },
      ],
      bars,
    );
    expect([...bars.keys()]).toEqual([1767225600, 1767398400]);
    expect(drifts).toEqual([
      {
        provider: "stream_provider",
        document: "timescale_update",
        path: "p[1].sds_1.s[].v",
        expected: "[time, open, high, low, close, volume] as numbers",
        seen: "a list of 6",
      },
    ]);
  });

  it("reports nothing of a well-formed update", () => {
    expect(
      collectBars(["cs_x", { sds_1: { s: [{ i: 0, v: [1767225600, 10, 11, 9, 10.5, 1000] }] } }], new Map()),
    ).toEqual([]);
  });
});
