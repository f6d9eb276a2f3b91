import { dema, ema, sma, tema, wma } from "./averages";
import { cci, macd, mom, roc, rsi, stoch } from "./momentum";
import type { PriceSeries } from "./series";
import { atr, bbands, kc } from "./volatility";
import { ad, mfi, obv, vwap } from "./volume";

export type Category = "trend" | "momentum" | "volatility" | "volume";

export interface ParamSpec {
  name: string;
  default: number;
  min: number;
  max: number;
  integer: boolean;
  description: string;
}

export interface OutputSpec {
  name: string;
  label: string;
}

export type Params = Record<string, number>;

export type PriceField = "open" | "high" | "low" | "close" | "volume";

/** One indicator: its parameters, outputs, warm-up and computation. */
export interface IndicatorSpec {
  name: string;
  label: string;
  category: Category;
  params: readonly ParamSpec[];
  outputs: readonly OutputSpec[];
  /** VWAP needs intraday bars. */
  intradayOnly: boolean;
  /**
   * True when the last value depends on the last lookback + 1 bars alone (windows, their sums
   * kept exactly), so those bars compute it bit for bit as the whole history does; false for
   * recursions and running totals (EMAs, Wilder's smoothing, OBV, A/D), whose value depends on
   * every bar loaded.
   */
  windowed: boolean;
  /** The price fields the computation reads. */
  inputs: readonly PriceField[];
  /** Bars before the first value (TA-Lib's lookback); at least lookback + 1 bars are needed. */
  lookback(p: Params): number;
  compute(s: PriceSeries, p: Params): Float64Array[];
}

const length = (dflt: number): ParamSpec => ({
  name: "length",
  default: dflt,
  min: 1,
  max: 1000,
  integer: true,
  description: "bars in the window",
});
const one = (name: string, label: string): OutputSpec[] => [{ name, label }];
/** A numeric parameter of an indicator's validated params. */
const param = (p: Params, k: string) => p[k] as number;

/**
 * The 18 indicators of the spec with their default parameters (TA-Lib is the reference). The one
 * place an indicator is described: routes, the catalogue answer and the screener read it.
 */
export const INDICATORS: readonly IndicatorSpec[] = [
  {
    name: "sma",
    label: "Simple moving average",
    category: "trend",
    params: [length(20)],
    outputs: one("sma", "SMA"),
    intradayOnly: false,
    windowed: true,
    inputs: ["close"],
    lookback: (p) => param(p, "length") - 1,
    compute: (s, p) => [sma(s.close, param(p, "length"))],
  },
  {
    name: "ema",
    label: "Exponential moving average",
    category: "trend",
    params: [length(20)],
    outputs: one("ema", "EMA"),
    intradayOnly: false,
    windowed: false,
    inputs: ["close"],
    lookback: (p) => param(p, "length") - 1,
    compute: (s, p) => [ema(s.close, param(p, "length"))],
  },
  {
    name: "wma",
    label: "Weighted moving average",
    category: "trend",
    params: [length(20)],
    outputs: one("wma", "WMA"),
    intradayOnly: false,
    windowed: true,
    inputs: ["close"],
    lookback: (p) => param(p, "length") - 1,
    compute: (s, p) => [wma(s.close, param(p, "length"))],
  },
  {
    name: "dema",
    label: "Double exponential moving average",
    category: "trend",
    params: [length(20)],
    outputs: one("dema", "DEMA"),
    intradayOnly: false,
    windowed: false,
    inputs: ["close"],
    lookback: (p) => 2 * (param(p, "length") - 1),
    compute: (s, p) => [dema(s.close, param(p, "length"))],
  },
  {
    name: "tema",
    label: "Triple exponential moving average",
    category: "trend",
    params: [length(20)],
    outputs: one("tema", "TEMA"),
    intradayOnly: false,
    windowed: false,
    inputs: ["close"],
    lookback: (p) => 3 * (param(p, "length") - 1),
    compute: (s, p) => [tema(s.close, param(p, "length"))],
  },
  {
    name: "vwap",
    label: "Volume-weighted average price (intraday, by session day)",
    category: "trend",
    params: [],
    outputs: one("vwap", "VWAP"),
    intradayOnly: true,
    windowed: false,
    inputs: ["high", "low", "close", "volume"],
    lookback: () => 0,
    compute: (s) => [vwap(s.epochs, s.high, s.low, s.close, s.volume)],
  },
  {
    name: "rsi",
    label: "Relative strength index",
    category: "momentum",
    params: [length(14)],
    outputs: one("rsi", "RSI"),
    intradayOnly: false,
    windowed: false,
    inputs: ["close"],
    lookback: (p) => param(p, "length"),
    compute: (s, p) => [rsi(s.close, param(p, "length"))],
  },
  {
    name: "macd",
    label: "Moving average convergence/divergence",
    category: "momentum",
    params: [
      { name: "fast", default: 12, min: 2, max: 1000, integer: true, description: "fast EMA length" },
      { name: "slow", default: 26, min: 2, max: 1000, integer: true, description: "slow EMA length" },
      { name: "signal", default: 9, min: 1, max: 1000, integer: true, description: "signal EMA length" },
    ],
    outputs: [
      { name: "macd", label: "MACD" },
      { name: "signal", label: "Signal" },
      { name: "histogram", label: "Histogram" },
    ],
    intradayOnly: false,
    windowed: false,
    inputs: ["close"],
    lookback: (p) => Math.max(param(p, "fast"), param(p, "slow")) + param(p, "signal") - 2,
    compute: (s, p) => macd(s.close, param(p, "fast"), param(p, "slow"), param(p, "signal")),
  },
  {
    name: "stoch",
    label: "Slow stochastic oscillator",
    category: "momentum",
    params: [
      { name: "fastk", default: 14, min: 1, max: 1000, integer: true, description: "bars of the fast %K" },
      { name: "slowk", default: 3, min: 1, max: 1000, integer: true, description: "SMA smoothing of %K" },
      { name: "slowd", default: 3, min: 1, max: 1000, integer: true, description: "SMA of %K giving %D" },
    ],
    outputs: [
      { name: "k", label: "%K" },
      { name: "d", label: "%D" },
    ],
    intradayOnly: false,
    windowed: true,
    inputs: ["high", "low", "close"],
    lookback: (p) => param(p, "fastk") + param(p, "slowk") + param(p, "slowd") - 3,
    compute: (s, p) => stoch(s.high, s.low, s.close, param(p, "fastk"), param(p, "slowk"), param(p, "slowd")),
  },
  {
    name: "cci",
    label: "Commodity channel index",
    category: "momentum",
    params: [length(20)],
    outputs: one("cci", "CCI"),
    intradayOnly: false,
    windowed: true,
    inputs: ["high", "low", "close"],
    lookback: (p) => param(p, "length") - 1,
    compute: (s, p) => [cci(s.high, s.low, s.close, param(p, "length"))],
  },
  {
    name: "roc",
    label: "Rate of change (percent)",
    category: "momentum",
    params: [length(10)],
    outputs: one("roc", "ROC"),
    intradayOnly: false,
    windowed: true,
    inputs: ["close"],
    lookback: (p) => param(p, "length"),
    compute: (s, p) => [roc(s.close, param(p, "length"))],
  },
  {
    name: "mom",
    label: "Momentum",
    category: "momentum",
    params: [length(10)],
    outputs: one("mom", "MOM"),
    intradayOnly: false,
    windowed: true,
    inputs: ["close"],
    lookback: (p) => param(p, "length"),
    compute: (s, p) => [mom(s.close, param(p, "length"))],
  },
  {
    name: "bbands",
    label: "Bollinger bands",
    category: "volatility",
    params: [
      length(20),
      {
        name: "std",
        default: 2,
        min: 0.1,
        max: 10,
        integer: false,
        description: "standard deviations from the middle band",
      },
    ],
    outputs: [
      { name: "upper", label: "Upper band" },
      { name: "middle", label: "Middle band" },
      { name: "lower", label: "Lower band" },
    ],
    intradayOnly: false,
    windowed: true,
    inputs: ["close"],
    lookback: (p) => param(p, "length") - 1,
    compute: (s, p) => bbands(s.close, param(p, "length"), param(p, "std")),
  },
  {
    name: "atr",
    label: "Average true range",
    category: "volatility",
    params: [length(14)],
    outputs: one("atr", "ATR"),
    intradayOnly: false,
    windowed: false,
    inputs: ["high", "low", "close"],
    lookback: (p) => param(p, "length"),
    compute: (s, p) => [atr(s.high, s.low, s.close, param(p, "length"))],
  },
  {
    name: "kc",
    label: "Keltner channels",
    category: "volatility",
    params: [
      length(20),
      {
        name: "multiplier",
        default: 2,
        min: 0.1,
        max: 10,
        integer: false,
        description: "true-range EMAs from the middle line",
      },
    ],
    outputs: [
      { name: "upper", label: "Upper channel" },
      { name: "middle", label: "Middle line" },
      { name: "lower", label: "Lower channel" },
    ],
    intradayOnly: false,
    windowed: false,
    inputs: ["high", "low", "close"],
    lookback: (p) => param(p, "length") - 1,
    compute: (s, p) => kc(s.high, s.low, s.close, param(p, "length"), param(p, "multiplier")),
  },
  {
    name: "obv",
    label: "On-balance volume",
    category: "volume",
    params: [],
    outputs: one("obv", "OBV"),
    intradayOnly: false,
    windowed: false,
    inputs: ["close", "volume"],
    lookback: () => 0,
    compute: (s) => [obv(s.close, s.volume)],
  },
  {
    name: "ad",
    label: "Accumulation/distribution line",
    category: "volume",
    params: [],
    outputs: one("ad", "A/D"),
    intradayOnly: false,
    windowed: false,
    inputs: ["high", "low", "close", "volume"],
    lookback: () => 0,
    compute: (s) => [ad(s.high, s.low, s.close, s.volume)],
  },
  {
    name: "mfi",
    label: "Money flow index",
    category: "volume",
    params: [length(14)],
    outputs: one("mfi", "MFI"),
    intradayOnly: false,
    windowed: true,
    inputs: ["high", "low", "close", "volume"],
    lookback: (p) => param(p, "length"),
    compute: (s, p) => [mfi(s.high, s.low, s.close, s.volume, param(p, "length"))],
  },
];

const BY_NAME = new Map(INDICATORS.map((i) => [i.name, i]));

export function indicatorSpec(name: string): IndicatorSpec | undefined {
  return BY_NAME.get(name.toLowerCase());
}

/** The defaults of an indicator's parameters, overridden by `given` (unknown keys ignored). */
export function withDefaults(spec: IndicatorSpec, given: Partial<Params>): Params {
  const out: Params = {};
  for (const p of spec.params) out[p.name] = given[p.name] ?? p.default;
  return out;
}

/** Bars needed for one value. */
export const minBars = (spec: IndicatorSpec, p: Params) => spec.lookback(p) + 1;

/**
 * The newest bars the last value is computed over when `loaded` bars are loaded (the stored
 * history every indicator route computes over, HISTORY_BARS): a windowed indicator's own window,
 * anything else every loaded bar. Fewer bars than that give the same last value only for windowed indicators.
 */
export const lastValueBars = (spec: IndicatorSpec, p: Params, loaded: number) =>
  spec.windowed ? Math.min(minBars(spec, p), loaded) : loaded;
