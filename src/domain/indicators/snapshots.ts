import type { Bar } from "../bars";
import { INDICATORS, indicatorSpec, minBars, withDefaults } from "./catalogue";
import { seriesOfBars } from "./series";
import type { IndicatorSpec, Params } from "./spec";

/**
 * The indicator values kept for every listing after its bars change, so that the screener answers
 * them with one indexed query: each indicator's default parameters on daily bars, the length the
 * screener takes by default (14, the spec's `period` default) and the lengths screens ask for most
 * (the 50- and 200-day averages). Pure.
 */
export interface SnapshotEntry {
  spec: IndicatorSpec;
  params: Params;
}

const withLength = (name: string, length: number): SnapshotEntry[] => {
  const spec = indicatorSpec(name);
  return spec ? [{ spec, params: withDefaults(spec, { length }) }] : [];
};

const DAILY = INDICATORS.filter((s) => !s.intradayOnly);
const SCREEN_DEFAULT_LENGTH = 14;

/** Its order is the screen rows' layout (screen-row.ts): a reordering needs a new SNAPSHOT_FORMULA. */
export const SNAPSHOT_SET: readonly SnapshotEntry[] = [
  ...DAILY.map((spec) => ({ spec, params: withDefaults(spec, {}) })),
  ...DAILY.filter((s) => s.params.some((p) => p.name === "length" && p.default !== SCREEN_DEFAULT_LENGTH)).flatMap(
    (s) => withLength(s.name, SCREEN_DEFAULT_LENGTH),
  ),
  ...withLength("sma", 50),
  ...withLength("sma", 200),
  ...withLength("ema", 50),
  ...withLength("ema", 200),
];

/** Parameters as one text, keys in order, as snapshots are stored and looked up. @example paramsKey({b: 2, a: 1}) // '{"a":1,"b":2}' */
export const paramsKey = (params: Params): string =>
  JSON.stringify(Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));

/** Whether daily snapshots hold this indicator with these parameters. */
export function isSnapshotted(name: string, params: Params): boolean {
  const key = paramsKey(params);
  return SNAPSHOT_SET.some((e) => e.spec.name === name && paramsKey(e.params) === key);
}

/**
 * The version of the indicators' arithmetic: a snapshot written by an earlier one (1: plain running
 * sums; 2: windows summed exactly; 3: over the stored history, not the default window) is
 * recomputed by the next refresh of its listing.
 */
export const SNAPSHOT_FORMULA = 3;

/** One stored value: the indicator's first output at the last bar, over the window's bars. */
export interface Snapshot {
  indicator: string;
  params: string;
  /** Null when the last value is not a number (a flat window's oscillator). */
  value: number | null;
  /** False when the window has fewer bars than the indicator needs (the screener skips it). */
  computable: boolean;
  asOf: string;
  windowFrom: string;
  windowBars: number;
  formula: number;
}

/**
 * Every snapshot of a listing from its newest bars: each value is computed over the last
 * `windowBars` of them (HISTORY_BARS: the history every indicator route computes over), so the
 * screener and the ticker's own routes give the same last value. No bars, no snapshot.
 */
export function snapshotsOf(bars: readonly Bar[], windowBars: number): Snapshot[] {
  const window = bars.slice(-windowBars);
  const first = window[0];
  const last = window.at(-1);
  if (!first || !last) return [];
  const series = seriesOfBars(window);
  return SNAPSHOT_SET.map(({ spec, params }) => {
    const computable = window.length >= minBars(spec, params);
    const v = computable ? spec.compute(series, params)[0]?.[window.length - 1] : undefined;
    return {
      indicator: spec.name,
      params: paramsKey(params),
      value: v === undefined || Number.isNaN(v) ? null : v,
      computable,
      asOf: last.date,
      windowFrom: first.date,
      windowBars,
      formula: SNAPSHOT_FORMULA,
    };
  });
}
