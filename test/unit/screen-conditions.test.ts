import { describe, expect, it } from "vitest";
import { indicatorTerms, MAX_CONDITIONS, parseWhere } from "../../src/domain/screen-conditions";

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
        },
        op: ">=",
        right: {
          kind: "indicator",
          key: "ema_200",
          indicator: "ema",
          params: { length: 200 },
          paramsKey: '{"length":200}',
        },
      },
      { kind: "text", field: "exchange", value: "NASDAQ" },
    ]);
    // rsi and rsi_14 are one term.
    const twice = parseWhere("rsi < 30, rsi_14 > 10");
    expect(twice.ok && indicatorTerms(twice.conditions).map((t) => t.key)).toEqual(["rsi_14"]);
    expect(parseWhere("macd > 0").ok).toBe(true);
    expect(parseWhere("close <= -1.5").ok).toBe(true);
  });

  it("refuses what it cannot screen, saying why", () => {
    const error = (w: string) => {
      const p = parseWhere(w);
      return p.ok ? null : p.error;
    };
    expect(error("sma_30 < 10")).toMatch(/^'sma_30 < 10': sma_30 is not kept as a snapshot: screen it alone/);
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
