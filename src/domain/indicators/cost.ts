import type { IndicatorRequest } from "./request";

/**
 * What a request of several indicators costs: the values it computes, each output of each
 * indicator over every bar of the history it is computed over (domain/indicators/history: at most
 * 5,000 bars). GET /technical/{ticker}/multi and /chart are bounded by this rather than by a number
 * of indicators (the spec caps only the batch route at 10): 40 indicators over 5,000 bars fit, and
 * what would compute more than MAX_INDICATOR_VALUES is refused.
 */
export const MAX_INDICATOR_VALUES = 1_000_000;

/** The values `requests` compute over `bars` bars. */
export function indicatorValues(requests: readonly IndicatorRequest[], bars: number): number {
  return requests.reduce((n, r) => n + r.spec.outputs.length, 0) * bars;
}

/**
 * Why the request is too costly, or null when it fits.
 * @example costProblem(fortyRequests, 100_000) // "40 indicators (40 series) over 100000 bars are 4000000 values; at most 1000000: ask for fewer indicators"
 */
export function costProblem(requests: readonly IndicatorRequest[], bars: number): string | null {
  const values = indicatorValues(requests, bars);
  if (values <= MAX_INDICATOR_VALUES) return null;
  const series = requests.reduce((n, r) => n + r.spec.outputs.length, 0);
  return `${requests.length} indicators (${series} series) over ${bars} bars are ${values} values; at most ${MAX_INDICATOR_VALUES}: ask for fewer indicators`;
}
