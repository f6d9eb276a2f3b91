/** Verdicts counted by provider, field and status (what the validation layer stored). */
export interface VerdictCount {
  provider: string;
  field: string;
  status: "valid" | "outlier" | "out_of_range" | "null" | "schema_drift";
  n: number;
}

export interface ProviderReliability {
  provider: string;
  /** Valid values over values given (a null is a missing value, not a wrong one); null without any. */
  success_rate: number | null;
  values: number;
}

/** How many providers each reliability list names, and how many fields the invalid list. */
const TOP = 3;
const TOP_FIELDS = 10;

/** Rates are shown to four places (0.7778). */
export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** Verdicts on values (a schema drift is about the provider's format, not a value it gave). */
const onValues = (counts: readonly VerdictCount[]) => counts.filter((c) => c.status !== "schema_drift");

/** Success rate of a set of counts: valid over non-null values; null when nothing was given. */
export function successRate(counts: readonly VerdictCount[]): number | null {
  const given = onValues(counts)
    .filter((c) => c.status !== "null")
    .reduce((s, c) => s + c.n, 0);
  const valid = counts.filter((c) => c.status === "valid").reduce((s, c) => s + c.n, 0);
  return given === 0 ? null : round4(valid / given);
}

/**
 * GET /health/stats (spec "Validation statistics"): totals by verdict, the overall quality score
 * (valid over values given), the providers by success rate (most and least reliable, three each),
 * and the fields most often refused (outliers and out of range, ten at most).
 */
export function validationStatistics(all: readonly VerdictCount[]) {
  const counts = onValues(all);
  const total = (status?: VerdictCount["status"]) =>
    counts.filter((c) => !status || c.status === status).reduce((s, c) => s + c.n, 0);
  const drifts = all.filter((c) => c.status === "schema_drift");
  const providers = [...new Set(counts.map((c) => c.provider))].map((provider): ProviderReliability => {
    const own = counts.filter((c) => c.provider === provider);
    return { provider, success_rate: successRate(own), values: own.reduce((s, c) => s + c.n, 0) };
  });
  const rated = providers.filter((p) => p.success_rate !== null);
  const byRate = (dir: 1 | -1) => (a: ProviderReliability, b: ProviderReliability) =>
    dir * ((a.success_rate as number) - (b.success_rate as number)) || (a.provider < b.provider ? -1 : 1);
  const invalidByField = new Map<string, { invalid: number; total: number }>();
  for (const c of counts) {
    const e = invalidByField.get(c.field) ?? { invalid: 0, total: 0 };
    e.total += c.n;
    if (c.status === "outlier" || c.status === "out_of_range") e.invalid += c.n;
    invalidByField.set(c.field, e);
  }
  return {
    period: "last_7_days" as const,
    total_values_validated: total(),
    total_valid: total("valid"),
    total_outliers: total("outlier"),
    total_out_of_range: total("out_of_range"),
    total_nulls: total("null"),
    total_schema_drift: drifts.reduce((s, c) => s + c.n, 0),
    overall_quality_score: successRate(counts),
    most_reliable_providers: [...rated].sort(byRate(-1)).slice(0, TOP),
    least_reliable_providers: [...rated].sort(byRate(1)).slice(0, TOP),
    fields_most_often_invalid: [...invalidByField]
      .filter(([, e]) => e.invalid > 0)
      .map(([field, e]) => ({ field, invalid: e.invalid, total: e.total }))
      .sort((a, b) => b.invalid - a.invalid || (a.field < b.field ? -1 : 1))
      .slice(0, TOP_FIELDS),
    schema_drift: driftCounts(drifts).slice(0, TOP_FIELDS),
  };
}

/** Drift verdicts counted by provider and place (`quoteSummary:earningsTrend.trend[].growth`), most first. */
export function driftCounts(counts: readonly VerdictCount[]): { provider: string; field: string; count: number }[] {
  const byKey = new Map<string, { provider: string; field: string; count: number }>();
  for (const c of counts) {
    if (c.status !== "schema_drift") continue;
    const key = `${c.provider}|${c.field}`;
    const e = byKey.get(key) ?? { provider: c.provider, field: c.field, count: 0 };
    e.count += c.n;
    byKey.set(key, e);
  }
  return [...byKey.values()].sort(
    (a, b) =>
      b.count - a.count || (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : a.field < b.field ? -1 : 1),
  );
}

/**
 * The severity of a provider's success rate (spec: ALERT_SUCCESS_RATE_WARNING / _CRITICAL): critical
 * below the critical threshold, warning below the warning one, else none.
 */
export function outlierSeverity(
  rate: number | null,
  thresholds: { warning: number; critical: number },
): "warning" | "critical" | null {
  if (rate === null) return null;
  if (rate < thresholds.critical) return "critical";
  if (rate < thresholds.warning) return "warning";
  return null;
}
