import type { IndicatorSpec, Params } from "./spec";
import { MOMENTUM_INDICATORS } from "./specs-momentum";
import { TREND_INDICATORS } from "./specs-trend";
import { VOLATILITY_INDICATORS } from "./specs-volatility";
import { VOLUME_INDICATORS } from "./specs-volume";

/**
 * The 18 indicators of the spec with their default parameters (TA-Lib is the reference). The one
 * place an indicator is described: routes, the catalogue answer and the screener read it.
 */
export const INDICATORS: readonly IndicatorSpec[] = [
  ...TREND_INDICATORS,
  ...MOMENTUM_INDICATORS,
  ...VOLATILITY_INDICATORS,
  ...VOLUME_INDICATORS,
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
