import { describe, expect, it } from "vitest";
import { indicatorTerms, MAX_CONDITIONS, numberOf, parseWhere, readsFigures } from "../../src/domain/screen-conditions";

describe("parseWhere: the conditions of a screen of several", () => {
  it("reads comparisons of snapshotted indicators, the close and numbers, and text fields", () => {
    const parsed = parseWhere("rsi < 30, close > sma_200 and ema_50 >= ema_200, exchange = NASDAQ");
    expect(parsed.ok && parsed.conditions).toEqual([
      {
        kind: "compare",
        left: {
          kind: "indicator",
          key: "rsi_14",
          indicator: "rsi",
          params: { length: 14 },
          paramsKey: '{"length":14}',
          snapshotted: true,
        },
        op: "<",
        right: 30,
      },
      {
        kind: "compare",
        left: { kind: "close", key: "close" },
        op: ">",
        right: {
          kind: "indicator",
          key: "sma_200",
          indicator: "sma",
          params: { length: 200 },
          paramsKey: '{"length":200}',
          snapshotted: true,
        },
      },
      {
        kind: "compare",
        left: {
          kind: "indicator",
          key: "ema_50",
          indicator: "ema",
          params: { length: 50 },
          paramsKey: '{"length":50}',
          snapshotted: true,
        },
        op: ">=",
        right: {
          kind: "indicator",
          key: "ema_200",
          indicator: "ema",
          params: { length: 200 },
          paramsKey: '{"length":200}',
          snapshotted: true,
        },
      },
      { kind: "text", field: "exchange", value: "NASDAQ" },
    ]);
    // rsi and rsi_14 are one term.
    const twice = parseWhere("rsi < 30, rsi_14 > 10");
    expect(twice.ok && indicatorTerms(twice.conditions).map((t) => t.key)).toEqual(["rsi_14"]);
    expect(parseWhere("macd > 0").ok).toBe(true);
    // One length no snapshot holds is a term too, marked so.
    const other = parseWhere("sma_30 > close, rsi < 30");
    expect(other.ok && indicatorTerms(other.conditions).map((t) => [t.key, t.snapshotted])).toEqual([
      ["sma_30", false],
      ["rsi_14", true],
    ]);
    expect(parseWhere("close <= -1.5").ok).toBe(true);
  });

  it("reads the stored figures and numbers with their scale words", () => {
    const parsed = parseWhere("market_cap > 10bn, dividend_yield >= 3%, pe_ratio < close");
    expect(parsed.ok && parsed.conditions).toEqual([
      { kind: "compare", left: { kind: "figure", key: "market_cap" }, op: ">", right: 10e9 },
      { kind: "compare", left: { kind: "figure", key: "dividend_yield" }, op: ">=", right: 0.03 },
      { kind: "compare", left: { kind: "figure", key: "pe_ratio" }, op: "<", right: { kind: "close", key: "close" } },
    ]);
    expect(parsed.ok && readsFigures(parsed.conditions)).toBe(true);
    const none = parseWhere("rsi < 30");
    expect(none.ok && readsFigures(none.conditions)).toBe(false);
    expect(
      ["30", "-1.5", ".5", "1e10", "2.5k", "500m", "500 MN", "10B", "1.2tn", "3%", "+4"].map((t) => numberOf(t)),
    ).toEqual([30, -1.5, 0.5, 1e10, 2500, 500e6, 500e6, 10e9, 1.2e12, 0.03, 4]);
    // The scale is read with the digits: the double nearest the number written, as a stored figure is.
    expect(["57%", "1.1bn", "0.07%", "2.3e-1%"].map((t) => numberOf(t))).toEqual([0.57, 1.1e9, 0.0007, 0.0023]);
    for (const t of ["", "1.2.3", "10bnx", "1e999", "Infinity", "0x10", "1 0"]) expect(numberOf(t), t).toBeNull();
  });

  it("refuses what it cannot screen, saying why", () => {
    const error = (w: string) => {
      const p = parseWhere(w);
      return p.ok ? null : p.error;
    };
    expect(error("sma_30 < 10, ema_30 > 1")).toMatch(
      /^a screen takes one indicator no snapshot holds at a time; sma_30 and ema_30 are not kept/,
    );
    expect(error("foo > 1")).toMatch(/unknown indicator 'foo'/);
    expect(error("vwap > 1")).toMatch(/intraday bars only/);
    expect(error("rsi 30")).toBe("'rsi 30' compares nothing: use <, <=, >, >= or =");
    expect(error("sector > Tech")).toMatch(/sector is compared with =/);
    expect(error("rsi = 30")).toMatch(/= compares sector, exchange, currency, quote_type/);
    expect(error(Array.from({ length: MAX_CONDITIONS + 1 }, () => "rsi < 30").join(","))).toBe(
      `where takes at most ${MAX_CONDITIONS} conditions; ${MAX_CONDITIONS + 1} given`,
    );
    expect(error(" , ")).toMatch(/at least one condition/);
    expect(error("x".repeat(401))).toBe("where is at most 400 characters");
  });
});
