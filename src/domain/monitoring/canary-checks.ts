import { driftField, driftReason, type SchemaDrift } from "../drift";
import { SCRAPED_FIELDS } from "../fundamentals/fields";
import { driftVerdict, type Unit, type Verdict, validate } from "../fundamentals/validation";
import { DELAYED, type FundamentalProvider } from "../provider-names";
import { judgeCanaryValue } from "./canary";
import type { CanaryInstrument } from "./canary-references";

/** One canary check: a value judged against its range (value null: none came, the error says why). */
export interface CanaryCheck {
  provider: string;
  /** Null with the field when the provider could not be asked about any instrument. */
  ticker: string | null;
  field: string | null;
  passed: boolean;
  latencyMs: number | null;
  value: number | null;
  expected: readonly [number, number] | null;
  error: string | null;
  at: Date;
}

/** One value as a provider sent it, in the unit it sends it in. */
/** A run's one check when the provider could not be asked at all: why, and nothing else. */
export const failedCheck = (provider: string, error: string, at: Date): CanaryCheck => ({
  provider,
  ticker: null,
  field: null,
  passed: false,
  latencyMs: null,
  value: null,
  expected: null,
  error,
  at,
});

export interface Observation {
  field: string;
  value: number | null;
  unit: Unit;
}

/** What asking a provider about one reference instrument gave: its values, or why there are none. */
export type CanaryAnswer =
  | { observations: Observation[]; problem: null; drifts?: SchemaDrift[] }
  | { observations: []; problem: string };

/** The fields a provider is checked on for an instrument: all expected ones, or those its page publishes. */
export function fieldsOf(provider: FundamentalProvider, inst: CanaryInstrument): string[] {
  const expected = Object.keys(inst.expected);
  return provider === DELAYED ? expected : SCRAPED_FIELDS.filter((f) => expected.includes(f));
}

/**
 * What one provider's answer about one instrument comes to: a check per expected field (its value
 * through the validation layer and against its range), or one failed check per field when the
 * provider could not answer, and a failed check per schema drift; with the validation's verdicts.
 */
export function canaryChecks(
  provider: FundamentalProvider,
  inst: CanaryInstrument,
  answer: CanaryAnswer,
  latencyMs: number,
  at: Date,
): { checks: CanaryCheck[]; verdicts: Verdict[] } {
  const base = { provider, ticker: inst.ticker, latencyMs, at };
  const { problem } = answer;
  if (problem !== null)
    // One failed check per field it would have been checked on: an unreachable provider weighs what a wrong one does.
    return {
      checks: fieldsOf(provider, inst).map((field) => ({
        ...base,
        field,
        passed: false,
        value: null,
        expected: inst.expected[field] ?? null,
        error: problem,
      })),
      verdicts: [],
    };
  const verdicts: Verdict[] = [];
  const checks: CanaryCheck[] = [];
  for (const o of answer.observations) {
    const range = inst.expected[o.field];
    if (!range) continue;
    const verdict = validate({ provider, field: o.field, value: o.value, unit: o.unit });
    verdicts.push(verdict);
    const j = judgeCanaryValue(verdict, o.unit, range);
    checks.push({ ...base, field: o.field, passed: j.passed, value: j.value, expected: range, error: j.problem });
  }
  // A format change fails the canary even where every checked value could still be read.
  for (const d of answer.drifts ?? []) {
    verdicts.push(driftVerdict(d));
    checks.push({
      ...base,
      field: driftField(d),
      passed: false,
      value: null,
      expected: null,
      error: `schema drift: ${driftReason(d)}`,
    });
  }
  return { checks, verdicts };
}
