import { writeFileSync } from "node:fs";
import * as ti from "technicalindicators";
import { INDICATORS, withDefaults } from "../../src/domain/indicators/catalogue";
import { type PriceSeries, seriesOfColumns } from "../../src/domain/indicators/series";
import type { IndicatorSpec } from "../../src/domain/indicators/spec";
import { benchHeader } from "./load";

/**
 * `npm run bench:indicators`: each of the 18 indicators on 1,000,000 bars with its default
 * parameters, in bars per second, side by side with the `technicalindicators` package where it
 * has the indicator (same parameters). Prints one JSON document; `--out FILE` also writes it.
 */
const BARS = Number(process.env.BENCH_BARS ?? 1_000_000);
const RUNS = 11;
const REFERENCE_RUNS = 3;

function syntheticSeries(n: number): PriceSeries {
  const c = {
    times: new Array<string>(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  let seed = 7;
  const rnd = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  let price = 100;
  const start = Date.UTC(2020, 0, 1, 14, 30);
  for (let i = 0; i < n; i++) {
    const open = price;
    price = Math.max(1, price * (1 + (rnd() - 0.5) * 0.02));
    c.open[i] = open;
    c.close[i] = price;
    c.high[i] = Math.max(open, price) * (1 + rnd() * 0.005);
    c.low[i] = Math.min(open, price) * (1 - rnd() * 0.005);
    c.volume[i] = Math.round(1e4 + rnd() * 1e6);
    // 1-minute bars, 390 a session, so VWAP restarts each day.
    c.times[i] = new Date(start + Math.floor(i / 390) * 86_400_000 + (i % 390) * 60_000).toISOString();
  }
  return seriesOfColumns(c);
}

/** The same computation in `technicalindicators`, where it has one; inputs are plain arrays, as it takes them. */
function reference(
  name: string,
  a: { open: number[]; high: number[]; low: number[]; close: number[]; volume: number[] },
): (() => unknown) | null {
  const { high, low, close, volume } = a;
  switch (name) {
    case "sma":
      return () => ti.SMA.calculate({ period: 20, values: close });
    case "ema":
      return () => ti.EMA.calculate({ period: 20, values: close });
    case "wma":
      return () => ti.WMA.calculate({ period: 20, values: close });
    case "rsi":
      return () => ti.RSI.calculate({ period: 14, values: close });
    case "macd":
      return () =>
        ti.MACD.calculate({
          values: close,
          fastPeriod: 12,
          slowPeriod: 26,
          signalPeriod: 9,
          SimpleMAOscillator: false,
          SimpleMASignal: false,
        });
    case "stoch":
      return () => ti.Stochastic.calculate({ high, low, close, period: 14, signalPeriod: 3 });
    case "cci":
      return () => ti.CCI.calculate({ high, low, close, period: 20 });
    case "roc":
      return () => ti.ROC.calculate({ period: 10, values: close });
    case "bbands":
      return () => ti.BollingerBands.calculate({ period: 20, stdDev: 2, values: close });
    case "atr":
      return () => ti.ATR.calculate({ high, low, close, period: 14 });
    case "kc":
      return () =>
        ti.KeltnerChannels.calculate({ high, low, close, maPeriod: 20, atrPeriod: 20, useSMA: false, multiplier: 2 });
    case "obv":
      return () => ti.OBV.calculate({ close, volume });
    case "ad":
      return () => ti.ADL.calculate({ high, low, close, volume });
    case "mfi":
      return () => ti.MFI.calculate({ high, low, close, volume, period: 14 });
    case "vwap":
      return () => ti.VWAP.calculate({ high, low, close, volume });
    default:
      return null; // dema, tema, mom: not in technicalindicators
  }
}

/** Collects garbage between runs when node runs with --expose-gc, so one side's garbage is not timed on the other's. */
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/**
 * Best wall time of `runs` runs after one untimed warm-up run (both sides get the JIT's help), in
 * seconds: the least disturbed run, the usual choice for CPU-bound code on a shared machine.
 */
function timeIt(fn: () => unknown, runs: number): number {
  fn();
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    collect();
    const t0 = performance.now();
    fn();
    times.push((performance.now() - t0) / 1000);
  }
  return Math.min(...times);
}

function main(): void {
  const outIndex = process.argv.indexOf("--out");
  const outFile = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
  const series = syntheticSeries(BARS);
  const arrays = {
    open: Array.from(series.open),
    high: Array.from(series.high),
    low: Array.from(series.low),
    close: Array.from(series.close),
    volume: Array.from(series.volume),
  };
  const rows = INDICATORS.map((spec: IndicatorSpec) => {
    const params = withDefaults(spec, {});
    const ours = timeIt(() => spec.compute(series, params), RUNS);
    const ref = reference(spec.name, arrays);
    const theirs = ref ? timeIt(ref, REFERENCE_RUNS) : null;
    return {
      indicator: spec.name,
      params,
      ours_bars_per_second: Math.round(BARS / ours),
      technicalindicators_bars_per_second: theirs === null ? null : Math.round(BARS / theirs),
      speedup: theirs === null ? null : Number((theirs / ours).toFixed(1)),
    };
  });
  const speedups = rows.flatMap((r) => (r.speedup === null ? [] : [r.speedup])).sort((a, b) => a - b);
  const report = {
    ...benchHeader("indicators"),
    bars: BARS,
    indicators: rows,
    compared: speedups.length,
    min_speedup: speedups[0] ?? null,
    median_speedup: speedups[Math.floor(speedups.length / 2)] ?? null,
  };
  const json = JSON.stringify(report, null, 2);
  console.log(json);
  if (outFile) writeFileSync(outFile, `${json}\n`);
}

main();
