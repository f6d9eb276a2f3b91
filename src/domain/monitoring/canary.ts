import Decimal from "decimal.js";
import type { Unit, Verdict } from "../fundamentals/validation";
import type { ExpectedRange } from "./canary-references";

/** What the canary concluded of one value: passed, or the problem in words. */
export interface CanaryJudgement {
  passed: boolean;
  /** The value in the service's units (ratios as fractions), refused or not. */
  value: number | null;
  problem: string | null;
}

const fmt = (x: number) => String(Number(x.toPrecision(6)));

/**
 * The canary's judgement of one value the validation layer has seen: it passes when the layer
 * accepts it, it lies in the expected range, and it came in the unit the provider documents. A
 * value the layer had to convert from percent although the provider documents ratios fails: the
 * answer is usable, but the provider changed its format, which is what the canary is for. (A
 * provider whose unit is unknown, like a page that writes a bare 3.16 for a yield, is converted
 * routinely; that is no change.)
 * @example judgeCanaryValue(validate({ provider: "p", field: "beta", value: 1.1 }), "ratio", [0.5, 2]).passed // true
 */
export function judgeCanaryValue(verdict: Verdict, unit: Unit, range: ExpectedRange): CanaryJudgement {
  if (verdict.status === "null") return { passed: false, value: null, problem: `no value (${verdict.reason})` };
  if (verdict.status !== "valid" || verdict.value === null) {
    // In the range's units: a percent the page wrote as "215.35 %" is 2.1535.
    const raw = verdict.raw;
    const value = raw !== null && unit === "percent" ? new Decimal(raw).div(100).toNumber() : raw;
    return { passed: false, value, problem: `refused as ${verdict.status}: ${verdict.reason}` };
  }
  const value = verdict.value;
  if (unit === "ratio" && verdict.raw !== null && value !== verdict.raw)
    return {
      passed: false,
      value,
      problem: `sent percent-scaled (${fmt(verdict.raw)} for ${fmt(value * 100)} %) by a provider that sends ratios`,
    };
  const [min, max] = range;
  if (value < min || value > max)
    return { passed: false, value, problem: `${fmt(value)} is outside the expected [${fmt(min)}, ${fmt(max)}]` };
  return { passed: true, value, problem: null };
}

/** A provider's label from its success rate (spec Limits: OK >= 85 %, DEGRADED >= 70 %, DOWN below). */
export type StatusLabel = "OK" | "DEGRADED" | "DOWN";

export const LABEL_THRESHOLDS = { ok: 0.85, degraded: 0.7 } as const;

export function statusLabel(successRate: number): StatusLabel {
  if (successRate >= LABEL_THRESHOLDS.ok) return "OK";
  if (successRate >= LABEL_THRESHOLDS.degraded) return "DEGRADED";
  return "DOWN";
}

/** The severity of a run's canary_failed alert: critical when the run's pass rate falls under the critical threshold. */
export function canarySeverity(passed: number, checked: number, criticalRate: number): "warning" | "critical" {
  return checked === 0 || passed / checked < criticalRate ? "critical" : "warning";
}
