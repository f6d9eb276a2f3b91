import { describe, expect, it } from "vitest";
import { INDICATORS, indicatorSpec, lastValueBars, minBars, withDefaults } from "../../src/domain/indicators/catalogue";
import { seriesOfBars } from "../../src/domain/indicators/series";
import { isSnapshotted, paramsKey, SNAPSHOT_SET, snapshotsOf } from "../../src/domain/indicators/snapshots";
import { makeBars } from "../helpers/factories";

/** Ten years of a wavy, noisy series: oscillators move through their whole range. */
const bars = makeBars(2600, {
  price: (i) => 100 + 20 * Math.sin(i / 17) + 7 * Math.sin(i / 3.1) + i / 50,
  volume: (i) => 1_000_000 + ((i * 7919) % 250_000),
});

const spec = (name: string) => {
  const s = indicatorSpec(name);
  if (!s) throw new Error(`no indicator ${name}`);
  return s;
};

describe("the indicator snapshots", () => {
  it("declare every daily indicator's defaults, the screener's default length and the common averages, once each", () => {
    const keys = SNAPSHOT_SET.map((e) => `${e.spec.name}:${paramsKey(e.params)}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of INDICATORS.filter((i) => !i.intradayOnly))
      expect(isSnapshotted(s.name, withDefaults(s, {}))).toBe(true);
    for (const s of INDICATORS.filter((i) => i.params.some((p) => p.name === "length") && !i.intradayOnly))
      expect(isSnapshotted(s.name, withDefaults(s, { length: 14 })), s.name).toBe(true);
    for (const [name, length] of [
      ["sma", 50],
      ["sma", 200],
      ["ema", 50],
      ["ema", 200],
    ] as const)
      expect(isSnapshotted(name, withDefaults(spec(name), { length }))).toBe(true);
    expect(isSnapshotted("vwap", withDefaults(spec("vwap"), {}))).toBe(false);
    expect(isSnapshotted("sma", withDefaults(spec("sma"), { length: 30 }))).toBe(false);
    expect(paramsKey({ slow: 26, fast: 12, signal: 9 })).toBe('{"fast":12,"signal":9,"slow":26}');
  });

  it("hold each indicator's last value over the window, as of the last bar", () => {
    const snaps = snapshotsOf(bars, 500);
    expect(snaps).toHaveLength(SNAPSHOT_SET.length);
    const window = seriesOfBars(bars.slice(-500));
    SNAPSHOT_SET.forEach(({ spec: s, params }, i) => {
      const snap = snaps[i];
      expect(snap).toMatchObject({
        indicator: s.name,
        params: paramsKey(params),
        computable: true,
        asOf: bars.at(-1)?.date,
        windowFrom: bars.at(-500)?.date,
        windowBars: 500,
      });
      expect(snap?.value, `${s.name} ${paramsKey(params)}`).toBe(s.compute(window, params)[0]?.[499]);
    });
  });

  it("are the window's values: the full history gives them bit for bit where the value has a window, not where it sums from the start", () => {
    // The screener answers what GET /technical/{ticker} answers: the value over its default window.
    // Windowed indicators keep their sums exactly, so the window, the whole history and the
    // indicator's own last lookback + 1 bars give the same float; recursions (EMA, Wilder) agree to
    // float precision, and cumulative ones (OBV, A/D) and long recursions (EMA 200: its seed) differ.
    const full = seriesOfBars(bars);
    const snaps = snapshotsOf(bars, 500);
    const fromAll = (name: string, given: Record<string, number>) => {
      const params = withDefaults(spec(name), given);
      const snap = snaps.find((s) => s.indicator === name && s.params === paramsKey(params))?.value as number;
      return { snap, all: spec(name).compute(full, params)[0]?.[bars.length - 1] as number };
    };
    for (const [name, given] of [
      ["sma", {}],
      ["sma", { length: 200 }],
      ["wma", {}],
      ["bbands", {}],
      ["cci", {}],
      ["roc", {}],
      ["mom", {}],
      ["mfi", {}],
      ["stoch", {}],
    ] as const) {
      expect(spec(name).windowed, name).toBe(true);
      const { snap, all } = fromAll(name, given);
      expect(snap, `${name} ${JSON.stringify(given)}`).toBe(all);
    }
    for (const [name, given] of [
      ["rsi", {}],
      ["macd", {}],
      ["atr", {}],
      ["ema", {}],
    ] as const) {
      expect(spec(name).windowed, name).toBe(false);
      const { snap, all } = fromAll(name, given);
      expect(Math.abs(snap - all) / Math.abs(all), `${name} ${JSON.stringify(given)}`).toBeLessThan(1e-12);
    }
    for (const [name, given] of [
      ["obv", {}],
      ["ad", {}],
      ["ema", { length: 200 }],
    ] as const) {
      const { snap, all } = fromAll(name, given);
      expect(Math.abs(snap - all) / Math.abs(all), `${name} ${JSON.stringify(given)}`).toBeGreaterThan(1e-4);
    }
  });

  it("need only a windowed indicator's own bars for its last value, every output, bit for bit", () => {
    // A price that is not a number inside the long window but before the short one changes nothing.
    const gapped = bars.map((b, i) => (i === bars.length - 300 ? { ...b, close: Number.NaN } : b));
    const full = seriesOfBars(gapped);
    const windowed = INDICATORS.filter((s) => s.windowed);
    expect(windowed.map((s) => s.name).sort()).toEqual(["bbands", "cci", "mfi", "mom", "roc", "sma", "stoch", "wma"]);
    for (const s of windowed)
      for (const given of s.name === "stoch"
        ? [{}, { fastk: 5, slowk: 4, slowd: 6 }, { fastk: 1, slowk: 1, slowd: 1 }, { fastk: 60, slowk: 9, slowd: 2 }]
        : [{}, { length: 3 }, { length: 37 }, { length: 250 }, { length: 12, std: 1.5 }]) {
        const params = withDefaults(s, given);
        const need = lastValueBars(s, params, 500);
        expect(need, s.name).toBe(minBars(s, params));
        const short = s.compute(seriesOfBars(gapped.slice(-need)), params);
        s.compute(full, params).forEach((out, k) => {
          expect(short[k]?.[need - 1], `${s.name} ${JSON.stringify(params)} output ${k}`).toBe(out[bars.length - 1]);
        });
      }
    for (const s of INDICATORS.filter((i) => !i.windowed))
      expect(lastValueBars(s, withDefaults(s, {}), 500), s.name).toBe(500);
  });

  it("mark what a short history cannot compute, and leave out a listing without bars", () => {
    const short = snapshotsOf(bars.slice(0, 30), 500);
    for (const s of short) {
      const entry = SNAPSHOT_SET.find((e) => e.spec.name === s.indicator && paramsKey(e.params) === s.params);
      const enough = 30 >= minBars(entry?.spec ?? spec("sma"), entry?.params ?? {});
      expect(s.computable, `${s.indicator} ${s.params}`).toBe(enough);
      if (!enough) expect(s.value).toBeNull();
    }
    expect(snapshotsOf([], 500)).toEqual([]);
  });
});
