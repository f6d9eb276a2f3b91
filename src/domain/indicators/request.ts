import { indicatorSpec, withDefaults } from "./catalogue";
import type { IndicatorSpec, Params } from "./spec";

export const RESOLUTIONS = ["1D", "1W", "1M", "1min"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
export const isIntraday = (r: Resolution) => r === "1min";

export interface IndicatorRequest {
  /** As the caller wrote it (`sma_50`): the name of its columns in multi and chart answers. */
  key: string;
  spec: IndicatorSpec;
  params: Params;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Checks parameter values against the indicator's bounds; the first problem, or null. */
export function paramProblem(spec: IndicatorSpec, params: Params): string | null {
  for (const p of spec.params) {
    const v = params[p.name];
    if (v === undefined || !Number.isFinite(v)) return `${spec.name}: ${p.name} must be a number`;
    if (p.integer && !Number.isInteger(v)) return `${spec.name}: ${p.name} must be an integer`;
    if (v < p.min || v > p.max) return `${spec.name}: ${p.name} must be between ${p.min} and ${p.max}`;
  }
  return null;
}

/**
 * `sma_50`, `bbands_20_2`, `macd_12_26_9`, `rsi`: the name, then values for the indicator's
 * parameters in their order (a numeric suffix sets the first parameter).
 * @example parseIndicator("bbands_20") // { ok: true, value: { key: "bbands_20", spec: bbands, params: { length: 20, std: 2 } } }
 */
export function parseIndicator(text: string): Parsed<IndicatorRequest> {
  const key = text.trim().toLowerCase();
  const [name = "", ...rest] = key.split("_");
  const spec = indicatorSpec(name);
  if (!spec) return { ok: false, error: `unknown indicator '${text.trim()}'` };
  if (rest.length > spec.params.length)
    return { ok: false, error: `${name} takes ${spec.params.length} parameter(s), ${rest.length} given in '${key}'` };
  const given: Params = {};
  for (let i = 0; i < rest.length; i++) {
    const v = Number(rest[i]);
    const p = spec.params[i];
    if (!p || rest[i] === "" || !Number.isFinite(v))
      return { ok: false, error: `'${rest[i]}' in '${key}' is not a number` };
    given[p.name] = v;
  }
  const params = withDefaults(spec, given);
  const problem = paramProblem(spec, params);
  return problem ? { ok: false, error: problem } : { ok: true, value: { key, spec, params } };
}

/** The single-indicator route's query: `period` sets the length (not for macd and stoch), fast/slow/signal and std their own. */
export function paramsFromQuery(
  spec: IndicatorSpec,
  q: { period?: number; fast?: number; slow?: number; signal?: number; std?: number },
): Parsed<Params> {
  const given: Params = {};
  if (q.period !== undefined && spec.params.some((p) => p.name === "length")) given.length = q.period;
  for (const k of ["fast", "slow", "signal", "std"] as const) {
    const v = q[k];
    if (v !== undefined && spec.params.some((p) => p.name === k)) given[k] = v;
  }
  const params = withDefaults(spec, given);
  const problem = paramProblem(spec, params);
  return problem ? { ok: false, error: problem } : { ok: true, value: params };
}
