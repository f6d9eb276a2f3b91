import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FIELD_RULES } from "../../src/domain/fundamentals/fields";
import { validate } from "../../src/domain/fundamentals/validation";
import { hasValidCheckDigit } from "../../src/domain/isin";
import { canarySeverity, judgeCanaryValue, statusLabel } from "../../src/domain/monitoring/canary";
import { CANARY_INSTRUMENTS } from "../../src/domain/monitoring/canary-references";
import type { ProviderOutcome } from "../../src/providers/outcomes";
import { latestReached } from "../../src/services/health/get-health";
import { FULL_CATALOGUE } from "../../tools/db/seed-indices";

const judge = (field: string, value: number | null, unit: "ratio" | "percent" | "unknown", range: [number, number]) =>
  judgeCanaryValue(validate({ provider: "p", field, value, unit }), unit, range);

describe("the canary's judgement of one value", () => {
  it("passes a value the validation layer accepts, inside its range, in the provider's own unit", () => {
    expect(judge("beta", 1.12, "ratio", [0.5, 1.8])).toEqual({ passed: true, value: 1.12, problem: null });
    // A page that writes a bare 3.16 for a yield (unit unknown) is read as 3.16 % routinely: no change.
    expect(judge("dividend_yield", 3.16, "unknown", [0.008, 0.045])).toEqual({
      passed: true,
      value: 0.0316,
      problem: null,
    });
    // The bounds are inclusive.
    expect(judge("pe_ratio", 60, "ratio", [15, 60]).passed).toBe(true);
  });

  it("fails a value outside its range, naming the range", () => {
    expect(judge("market_cap", 563_852_530.267, "ratio", [2e11, 8e12])).toEqual({
      passed: false,
      value: 563_852_530.267,
      problem: "563853000 is outside the expected [200000000000, 8000000000000]",
    });
  });

  it("fails a ratio sent in percent by a provider that documents ratios, though the layer could convert it", () => {
    const j = judge("dividend_yield", 2.15, "ratio", [0.003, 0.035]);
    expect(j.passed).toBe(false);
    expect(j.value).toBe(0.0215);
    expect(j.problem).toBe("sent percent-scaled (2.15 for 2.15 %) by a provider that sends ratios");
  });

  it("fails a value the layer refuses, in the range's units", () => {
    const pe = judge("pe_ratio", 25_656.82, "ratio", [15, 60]);
    expect(pe).toEqual({
      passed: false,
      value: 25_656.82,
      problem: "refused as out_of_range: 25656.8 is outside [0, 1500]",
    });
    // "215.35 %" on a page is 2.1535, what the expected [0.003, 0.035] is written in.
    expect(judge("dividend_yield", 215.35, "percent", [0.003, 0.035]).value).toBe(2.1535);
  });

  it("fails an absent value", () => {
    expect(judge("beta", null, "ratio", [0.5, 1.8])).toEqual({
      passed: false,
      value: null,
      problem: "no value (no value)",
    });
  });
});

describe("labels and severities", () => {
  it("labels OK from 85 %, DEGRADED from 70 %, DOWN below", () => {
    expect([1, 0.85, 0.8499, 0.7, 0.6999, 0].map(statusLabel)).toEqual([
      "OK",
      "OK",
      "DEGRADED",
      "DEGRADED",
      "DOWN",
      "DOWN",
    ]);
  });

  it("makes a run's canary_failed alert critical under the critical rate, or when nothing was checked", () => {
    expect(canarySeverity(4, 6, 0.7)).toBe("critical");
    expect(canarySeverity(19, 20, 0.7)).toBe("warning");
    expect(canarySeverity(7, 10, 0.7)).toBe("warning");
    expect(canarySeverity(0, 0, 0.7)).toBe("critical");
  });
});

describe("the reference instruments", () => {
  it("are catalogue listings with their ISIN and currency, two US and two European", () => {
    for (const inst of CANARY_INSTRUMENTS) {
      const asset = FULL_CATALOGUE.find((a) => a.isin === inst.isin);
      expect(asset, inst.ticker).toBeDefined();
      expect(hasValidCheckDigit(inst.isin)).toBe(true);
      expect(asset?.listings.find((l) => l.ticker === inst.ticker)?.currency, inst.ticker).toBe(inst.currency);
    }
    expect(CANARY_INSTRUMENTS.filter((i) => i.isin.startsWith("US")).length).toBe(2);
    expect(CANARY_INSTRUMENTS.filter((i) => !i.isin.startsWith("US")).length).toBe(2);
  });

  it("expect P/E, EPS, dividend yield, market cap and beta, each range inside what the validation layer allows", () => {
    for (const inst of CANARY_INSTRUMENTS) {
      expect(Object.keys(inst.expected).sort(), inst.ticker).toEqual(
        ["beta", "dividend_yield", "eps_ttm", "market_cap", "pe_ratio"].sort(),
      );
      for (const [field, [min, max]] of Object.entries(inst.expected)) {
        const rule = FIELD_RULES[field];
        expect(min, `${inst.ticker} ${field}`).toBeLessThan(max);
        expect(min).toBeGreaterThanOrEqual(rule?.min ?? Number.NaN);
        expect(max).toBeLessThanOrEqual(rule?.max ?? Number.NaN);
      }
    }
  });
});

describe("the worker tests beside the canary's", () => {
  it("never fault a reference instrument (the canary test would see it fail)", () => {
    const dir = new URL("../worker/", import.meta.url);
    const keys = new Set(CANARY_INSTRUMENTS.flatMap((i) => [i.ticker, i.symbol, i.isin, i.ticker.toLowerCase()]));
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".test.ts") && f !== "canary.test.ts")) {
      const source = readFileSync(new URL(file, dir), "utf8");
      for (const m of source.matchAll(/fault\(\s*\w+\s*,\s*"([^"]+)"/g))
        expect(keys.has(m[1] ?? ""), `${file}: ${m[0]}`).toBe(false);
    }
  });
});

describe("/health's delayed_provider_available", () => {
  const call = (failing: boolean, at: string): ProviderOutcome => ({
    failing,
    calls: 1,
    failures: failing ? 1 : 0,
    last_success_at: failing ? null : at,
    last_failure_at: failing ? at : null,
    last_failure: failing ? "unavailable" : null,
    last_failure_reason: failing ? "HTTP 503" : null,
  });

  it("follows the later of the isolate's latest call and the latest canary run", () => {
    expect(latestReached(undefined, null)).toBe(true);
    expect(latestReached(call(true, "2026-11-26T10:00:00Z"), null)).toBe(false);
    expect(latestReached(undefined, { at: "2026-11-26T10:00:00Z", answered: false })).toBe(false);
    // A canary run after a failed call: its outcome counts; a call after the run: the call's.
    expect(latestReached(call(true, "2026-11-26T10:00:00Z"), { at: "2026-11-26T11:00:00Z", answered: true })).toBe(
      true,
    );
    expect(latestReached(call(false, "2026-11-26T12:00:00Z"), { at: "2026-11-26T11:00:00Z", answered: false })).toBe(
      true,
    );
    expect(latestReached(call(true, "2026-11-26T12:00:00Z"), { at: "2026-11-26T11:00:00Z", answered: true })).toBe(
      false,
    );
  });
});
