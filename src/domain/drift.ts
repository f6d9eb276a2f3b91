/**
 * Schema drift: a provider's answer that departs from the format the service reads (a field gone,
 * of another type, renamed). A drifted field costs that field only; the drift itself is reported
 * as a `schema_drift` verdict beside the validation layer's verdicts, so an operator sees the
 * provider changed before users notice missing figures.
 */

export interface SchemaDrift {
  provider: string;
  /** The provider's document the drift is in: `quoteSummary`, `timeseries`, `chart`, `observations`, ... */
  document: string;
  /** Where in the document, indexes of lists folded: `earningsTrend.trend[].defaultMethodology`. */
  path: string;
  /** What the service expected there. */
  expected: string;
  /** What was there instead. */
  seen: string;
}

/** A short description of a value for a drift report (never the value's full text: it may be large). */
export function describe(v: unknown): string {
  if (v === undefined) return "absent";
  if (v === null) return "null";
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "an invalid date" : "a date";
  if (typeof v === "object") {
    const keys = Object.keys(v);
    return keys.length === 0
      ? "an empty object"
      : `an object {${keys.slice(0, 4).join(", ")}${keys.length > 4 ? ", …" : ""}}`;
  }
  if (typeof v === "string") return `a string "${v.length > 24 ? `${v.slice(0, 24)}…` : v}"`;
  if (typeof v === "number" && !Number.isFinite(v)) return String(v);
  return `a ${typeof v}`;
}

/** The drifts of one answer, one per document and path (the first seen wins). */
export function uniqueDrifts(drifts: readonly SchemaDrift[]): SchemaDrift[] {
  const byKey = new Map<string, SchemaDrift>();
  for (const d of drifts) {
    const key = `${d.provider}|${d.document}|${d.path}`;
    if (!byKey.has(key)) byKey.set(key, d);
  }
  return [...byKey.values()];
}

/** The field name a drift is stored under among the verdicts: `quoteSummary:earningsTrend.trend[].growth`. */
export const driftField = (d: Pick<SchemaDrift, "document" | "path">) => `${d.document}:${d.path}`;

/** A drift's reason as stored and shown: what was expected and what came. */
export const driftReason = (d: Pick<SchemaDrift, "expected" | "seen">) => `expected ${d.expected}, saw ${d.seen}`;

/**
 * Where a provider client reports the drift it read around (the request's journal, recorded as
 * verdicts after the answer): `subject` is what the document was about (a symbol, a series, a CIK).
 */
export interface DriftSink {
  report(subject: string, drifts: readonly SchemaDrift[]): void;
}

/** A sink that keeps nothing: for a client used where no one records drift. */
export const NO_DRIFT_SINK: DriftSink = { report: () => undefined };
