import { describe, expect, it } from "vitest";
import { INDICATORS, indicatorSpec, minBars, withDefaults } from "../../src/domain/indicators/catalogue";
import { type PriceSeries, seriesOfColumns } from "../../src/domain/indicators/series";
import golden from "../fixtures/talib-indicators.json";

const fromArrays = (times: string[], h: number[], l: number[], c: number[], v: number[]): PriceSeries =>
  seriesOfColumns({ times, open: c, high: h, low: l, close: c, volume: v });

const first12 = fromArrays(
  golden.bars.date.slice(0, 12).map((d) => `${d}T00:00:00Z`),
  golden.bars.high.slice(0, 12),
  golden.bars.low.slice(0, 12),
  golden.bars.close.slice(0, 12),
  golden.bars.volume.slice(0, 12),
);

const values = (a: Float64Array | undefined) => Array.from(a ?? [], (x) => (Number.isNaN(x) ? null : x));
const close = (got: (number | null)[], want: (number | null)[]) => {
  expect(got.length).toBe(want.length);
  want.forEach((w, i) => {
    if (w === null) expect(got[i]).toBeNull();
    else expect(Math.abs((got[i] ?? Number.NaN) - w)).toBeLessThanOrEqual(1e-12 * Math.abs(w));
  });
};

describe("Keltner channels (DESIGN.md: EMA(n) of close ± 2 × EMA(n) of true range)", () => {
  it("matches values worked out by hand from the definition (length 5, first bar's range high − low)", () => {
    const spec = indicatorSpec("kc");
    if (!spec) throw new Error("kc missing");
    const [upper, middle, lower] = spec.compute(first12, withDefaults(spec, { length: 5 }));
    const none = [null, null, null, null];
    close(values(upper), [
      ...none,
      103.72797999999999,
      101.41585333333332,
      100.54790222222222,
      98.33250148148147,
      97.89906765432099,
      97.17254510288065,
      96.21349673525377,
      96.22856449016919,
    ]);
    close(values(middle), [
      ...none,
      98.53385999999999,
      97.23170666666665,
      95.42847111111111,
      94.0611474074074,
      93.7459649382716,
      93.47180995884773,
      93.40747330589849,
      92.88081553726566,
    ]);
    close(values(lower), [
      ...none,
      93.33973999999999,
      93.04755999999999,
      90.30904,
      89.78979333333334,
      89.59286222222221,
      89.77107481481481,
      90.60144987654321,
      89.53306658436213,
    ]);
  });
});

describe("VWAP (intraday, restarted each session day)", () => {
  it("accumulates typical price × volume within a day and starts over the next", () => {
    const s = fromArrays(
      [
        "2026-11-24T14:30:00Z",
        "2026-11-24T14:31:00Z",
        "2026-11-24T14:32:00Z",
        "2026-11-25T14:30:00Z",
        "2026-11-25T14:31:00Z",
        "2026-11-25T14:32:00Z",
      ],
      [10, 11, 12, 20, 21, 22],
      [8, 9, 9, 20, 19, 20],
      [9, 10, 12, 20, 20, 21],
      [100, 300, 0, 0, 50, 150],
    );
    const spec = indicatorSpec("vwap");
    if (!spec) throw new Error("vwap missing");
    // Day 1: 9; (9·100 + 10·300)/400 = 9.75; no volume keeps 9.75. Day 2: nothing traded yet, then 20, then (20·50 + 21·150)/200.
    expect(values(spec.compute(s, {})[0])).toEqual([9, 9.75, 9.75, null, 20, 20.75]);
  });
});

describe("every indicator", () => {
  // A random walk long enough for every default warm-up.
  const n = 400;
  let x = 100;
  const c: number[] = [];
  const h: number[] = [];
  const l: number[] = [];
  const v: number[] = [];
  let seed = 42;
  const rnd = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (let i = 0; i < n; i++) {
    x *= 1 + (rnd() - 0.5) * 0.04;
    c.push(x);
    h.push(x * (1 + rnd() * 0.01));
    l.push(x * (1 - rnd() * 0.01));
    v.push(Math.round(1e5 + rnd() * 1e6));
  }
  const times = Array.from({ length: n }, (_, i) => new Date(Date.UTC(2026, 0, 5, 14, 30 + i)).toISOString());
  const walk = fromArrays(times, h, l, c, v);

  it.each(INDICATORS.map((i) => i.name))(
    "%s: first value exactly at its lookback, none before, all finite after",
    (name) => {
      const spec = indicatorSpec(name);
      if (!spec) throw new Error(`${name} missing`);
      const p = withDefaults(spec, {});
      for (const out of spec.compute(walk, p)) {
        expect(out.length).toBe(n);
        const firstValue = out.findIndex((y) => !Number.isNaN(y));
        expect(firstValue).toBe(spec.lookback(p));
        for (let i = firstValue; i < n; i++) expect(Number.isFinite(out[i])).toBe(true);
      }
    },
  );

  it.each(INDICATORS.map((i) => i.name))("%s: short and empty inputs give empty outputs, never a throw", (name) => {
    const spec = indicatorSpec(name);
    if (!spec) throw new Error(`${name} missing`);
    const p = withDefaults(spec, {});
    for (const len of [0, 1, minBars(spec, p) - 1]) {
      const short = fromArrays(times.slice(0, len), h.slice(0, len), l.slice(0, len), c.slice(0, len), v.slice(0, len));
      for (const out of spec.compute(short, p)) {
        expect(out.length).toBe(len);
        if (spec.lookback(p) > 0) expect(out.every((y) => Number.isNaN(y))).toBe(true);
      }
    }
  });
});
