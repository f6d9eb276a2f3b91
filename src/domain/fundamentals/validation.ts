import Decimal from "decimal.js";
import { driftField, driftReason, type SchemaDrift } from "../drift";
import { type FieldRule, HISTORY_TOLERANCE, PEER_TOLERANCE, ruleOf } from "./fields";

/**
 * The validation layer: every fundamentals value passes here before it is used, stored or shown.
 * Pure: the caller gives the value, the unit the provider sends it in, and the references (other
 * providers' values of the same field today, the instrument's stored values of earlier days); the
 * verdict says whether the value may be used, in which unit-normalised form, and why not.
 */

/** The unit a provider sends a ratio field in: its documented one, or `unknown` when it has none. */
export type Unit = "ratio" | "percent" | "unknown";

/** `schema_drift`: the provider's answer departed from the format the service reads (see domain/drift). */
export type VerdictStatus = "valid" | "outlier" | "out_of_range" | "null" | "schema_drift";

export interface Observation {
  provider: string;
  field: string;
  value: number | null | undefined;
  /** For ratio fields; other kinds ignore it. Default: ratio. */
  unit?: Unit;
}

export interface References {
  /** The same field from other providers in this request (already validated). */
  peers?: readonly number[];
  /** The instrument's own stored values of earlier days (already validated), newest first. */
  history?: readonly number[];
}

export interface Verdict {
  provider: string;
  field: string;
  status: VerdictStatus;
  /** The value as sent. */
  raw: number | null;
  /** The value to use (ratios as ratios); null unless the status is valid. */
  value: number | null;
  /** Why the value was refused, or how it was converted; null for a plain valid value. */
  reason: string | null;
}

/**
 * A drift as a verdict, stored beside the values' verdicts (one per provider, instrument, field and
 * day) and counted by /health/stats and /health/providers/{name}.
 * @example driftVerdict({ provider: "p", document: "quoteSummary", path: "price.currency", expected: "a string", seen: "a number" }).field // "quoteSummary:price.currency"
 */
export function driftVerdict(d: SchemaDrift): Verdict {
  return {
    provider: d.provider,
    field: driftField(d),
    status: "schema_drift",
    raw: null,
    value: null,
    reason: driftReason(d),
  };
}

const within = (x: number, r: FieldRule) => x >= r.min && x <= r.max;

const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/**
 * How many times apart two values are (>= 1); Infinity when their signs differ, null when either
 * is zero (nothing can be said of a ratio to zero).
 */
function factorApart(a: number, b: number): number | null {
  if (a === 0 || b === 0) return null;
  if (Math.sign(a) !== Math.sign(b)) return Number.POSITIVE_INFINITY;
  const f = a / b;
  return f >= 1 ? f : 1 / f;
}

/** The number a reference suggests among candidate readings, when exactly one is close to it. */
function closestReading(readings: readonly number[], reference: number | null): number | null {
  if (reference === null) return null;
  const close = readings.filter((r) => {
    const f = factorApart(r, reference);
    return f !== null && f <= PEER_TOLERANCE;
  });
  return close.length === 1 ? (close[0] as number) : null;
}

const fmt = (x: number) => String(Number(x.toPrecision(6)));

/**
 * The reading of a ratio field: a percent-scaled value (0.32 sent for 0.32 %) is converted when
 * only one reading is plausible or a reference picks one, and refused when both stay possible.
 */
function readRatio(
  raw: number,
  unit: Unit,
  rule: FieldRule,
  reference: number | null,
): { value: number; reason: string | null } | { refused: string } {
  // Divided in decimal: 0.55 % is 0.0055, not 0.0055000000000000005.
  const asPercent = new Decimal(raw).div(100).toNumber();
  if (unit === "percent") return { value: asPercent, reason: null };
  const asRatio = raw;
  const ratioOk = within(asRatio, rule);
  const percentOk = within(asPercent, rule);
  if (unit === "ratio" && ratioOk) return { value: asRatio, reason: null };
  if (ratioOk && percentOk) {
    if (unit === "ratio") return { value: asRatio, reason: null };
    const picked = closestReading([asRatio, asPercent], reference);
    if (picked === null)
      return {
        refused: `ambiguous scale: ${fmt(raw)} reads as ${fmt(asRatio * 100)} % or as ${fmt(asPercent * 100)} %, and ${
          reference === null ? "no reference tells which" : `neither is near the reference ${fmt(reference)}`
        }`,
      };
    return picked === asRatio
      ? { value: asRatio, reason: null }
      : { value: asPercent, reason: `percent-scaled: ${fmt(raw)} read as ${fmt(raw)} % (the reference agrees)` };
  }
  if (ratioOk) return { value: asRatio, reason: null };
  if (percentOk) return { value: asPercent, reason: `percent-scaled: ${fmt(raw)} read as ${fmt(raw)} %` };
  return { refused: `${fmt(raw)} is outside [${rule.min}, ${rule.max}] in either reading (ratio or percent)` };
}

/**
 * The verdict on one value: `null` when absent or not a finite number; `out_of_range` when outside
 * the field's bounds (or of an undecidable scale); `outlier` when more than PEER_TOLERANCE times
 * apart from the median of the other providers, or HISTORY_TOLERANCE times from the median of its
 * own history; else `valid`, with the value converted to a ratio where it arrived percent-scaled.
 * A field without a rule is only checked for being a finite number.
 * @example validate({ provider: "p", field: "dividend_yield", value: 0.52, unit: "unknown" }).value // 0.0052
 */
export function validate(obs: Observation, refs: References = {}): Verdict {
  const base = { provider: obs.provider, field: obs.field };
  const raw = obs.value;
  if (raw === null || raw === undefined || !Number.isFinite(raw))
    return {
      ...base,
      status: "null",
      raw: null,
      value: null,
      reason: raw === undefined || raw === null ? "no value" : "not a number",
    };
  const rule = ruleOf(obs.field);
  if (!rule) return { ...base, status: "valid", raw, value: raw, reason: null };
  const peer = median(refs.peers ?? []);
  const past = median(refs.history ?? []);
  let value = raw;
  let reason: string | null = null;
  if (rule.kind === "ratio") {
    const reading = readRatio(raw, obs.unit ?? "ratio", rule, peer ?? past);
    if ("refused" in reading) return { ...base, status: "out_of_range", raw, value: null, reason: reading.refused };
    ({ value, reason } = reading);
  }
  if (!within(value, rule))
    return {
      ...base,
      status: "out_of_range",
      raw,
      value: null,
      reason: `${fmt(value)} is outside [${rule.min}, ${rule.max}]`,
    };
  if (peer !== null) {
    const f = factorApart(value, peer);
    if (f !== null && f > PEER_TOLERANCE)
      return {
        ...base,
        status: "outlier",
        raw,
        value: null,
        reason: `${fmt(value)} against ${fmt(peer)} from the other providers`,
      };
  }
  if (past !== null) {
    const f = factorApart(value, past);
    // A change of sign against history is possible (a loss year); against today's peers it is not.
    if (f !== null && Number.isFinite(f) && f > HISTORY_TOLERANCE)
      return {
        ...base,
        status: "outlier",
        raw,
        value: null,
        reason: `${fmt(value)} against ${fmt(past)} stored for earlier days`,
      };
  }
  return { ...base, status: "valid", raw, value, reason };
}

/** The numbers of one field in stored highlights (the instrument's history for the validation layer). */
export function historyOf(snapshots: readonly Record<string, number | string | null>[], field: string): number[] {
  return snapshots.map((h) => h[field]).filter((v): v is number => typeof v === "number");
}
