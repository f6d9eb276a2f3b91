import { describe, expect, it } from "vitest";
import { indicatorSpec, withDefaults } from "../../src/domain/indicators/catalogue";
import { seriesOfColumns } from "../../src/domain/indicators/series";
import golden from "../fixtures/talib-indicators.json";

/**
 * TA-Lib 1.1.6's outputs on a 600-bar synthetic series (copied from the team's golden file):
 * every value within 1e-9 relative (1e-9 absolute below 1, where float noise of either side
 * dominates, e.g. an RSI of 2e-14), and null exactly where TA-Lib has no output yet.
 */
interface GoldenCase {
  talib: string;
  params: Record<string, number>;
  begIndex: number;
  outputs: Record<string, (number | null)[]>;
}

const bars = golden.bars;
const series = seriesOfColumns({ ...bars, times: bars.date.map((d) => `${d}T00:00:00Z`) });

/** Our indicator, parameters and output order for each TA-Lib case. */
const CASES: Record<string, { name: string; params: Record<string, number>; outputs: string[] }> = {
  sma_20: { name: "sma", params: { length: 20 }, outputs: ["outReal"] },
  ema_20: { name: "ema", params: { length: 20 }, outputs: ["outReal"] },
  ema_50: { name: "ema", params: { length: 50 }, outputs: ["outReal"] },
  wma_20: { name: "wma", params: { length: 20 }, outputs: ["outReal"] },
  dema_20: { name: "dema", params: { length: 20 }, outputs: ["outReal"] },
  tema_20: { name: "tema", params: { length: 20 }, outputs: ["outReal"] },
  rsi_14: { name: "rsi", params: { length: 14 }, outputs: ["outReal"] },
  macd_12_26_9: {
    name: "macd",
    params: { fast: 12, slow: 26, signal: 9 },
    outputs: ["outMACD", "outMACDSignal", "outMACDHist"],
  },
  stoch_14_3_3: { name: "stoch", params: { fastk: 14, slowk: 3, slowd: 3 }, outputs: ["outSlowK", "outSlowD"] },
  cci_20: { name: "cci", params: { length: 20 }, outputs: ["outReal"] },
  roc_10: { name: "roc", params: { length: 10 }, outputs: ["outReal"] },
  mom_10: { name: "mom", params: { length: 10 }, outputs: ["outReal"] },
  bbands_20_2: {
    name: "bbands",
    params: { length: 20, std: 2 },
    outputs: ["outRealUpperBand", "outRealMiddleBand", "outRealLowerBand"],
  },
  atr_14: { name: "atr", params: { length: 14 }, outputs: ["outReal"] },
  obv: { name: "obv", params: {}, outputs: ["outReal"] },
  ad: { name: "ad", params: {}, outputs: ["outReal"] },
  mfi_14: { name: "mfi", params: { length: 14 }, outputs: ["outReal"] },
};

const cases = golden.indicators as unknown as Record<string, GoldenCase>;

describe("indicators against TA-Lib", () => {
  it("covers every golden case", () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(cases).sort());
  });

  it.each(Object.keys(CASES))("%s", (key) => {
    const c = CASES[key];
    const g = cases[key];
    if (!c || !g) throw new Error(`no case ${key}`);
    const spec = indicatorSpec(c.name);
    if (!spec) throw new Error(`no indicator ${c.name}`);
    const params = withDefaults(spec, c.params);
    expect(spec.lookback(params)).toBe(g.begIndex);
    const outs = spec.compute(series, params);
    c.outputs.forEach((name, k) => {
      const expected = g.outputs[name] ?? [];
      const got = outs[k] ?? new Float64Array();
      expect(got.length).toBe(expected.length);
      expected.forEach((want, i) => {
        const have = got[i] as number;
        if (want === null) {
          expect(Number.isNaN(have), `${key}.${name}[${i}] should be empty, is ${have}`).toBe(true);
          return;
        }
        const tolerance = 1e-9 * Math.max(1, Math.abs(want));
        expect(Math.abs(have - want), `${key}.${name}[${i}]: ${have} vs ${want}`).toBeLessThanOrEqual(tolerance);
      });
    });
  });
});
