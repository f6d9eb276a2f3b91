import type { PriceSeries } from "./series";

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

export const length = (dflt: number): ParamSpec => ({
  name: "length",
  default: dflt,
  min: 1,
  max: 1000,
  integer: true,
  description: "bars in the window",
});
export const one = (name: string, label: string): OutputSpec[] => [{ name, label }];
/** A numeric parameter of an indicator's validated params. */
export const param = (p: Params, k: string) => p[k] as number;
