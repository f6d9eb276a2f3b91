import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { validationResults } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import type { ValidationStatsBody } from "../../src/routes/health/stats";
import { fault, resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");
/** This file's instrument (no other test enriches it). */
const TICKER = "ML.PA";

async function verdictsOf(ticker: string) {
  const deps = buildDeps(env);
  const { db } = deps;
  try {
    return await db
      .select()
      .from(validationResults)
      .where(and(eq(validationResults.ticker, ticker), eq(validationResults.providerName, "delayed_provider")));
  } finally {
    await deps.close();
  }
}

describe("GET /health/stats", () => {
  beforeAll(() => resetTickers(TICKER));

  it("counts the verdicts of a deep enrichment, a refused P/E among the invalid fields", async () => {
    const before = (await call<ValidationStatsBody>("/health/stats")).body;
    await fault(yahoo, TICKER, "absurd_pe", 1);
    expect((await call(`/fundamental/deep?ticker=${TICKER}&refresh=true`)).status).toBe(200);
    const mine = await verdictsOf(TICKER);
    expect(mine.length).toBeGreaterThan(20);
    expect(mine.find((v) => v.field === "pe_ratio")?.status).toBe("out_of_range");

    const res = await call<ValidationStatsBody>("/health/stats");
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s.period).toBe("last_7_days");
    expect(s.total_values_validated).toBe(s.total_valid + s.total_outliers + s.total_out_of_range + s.total_nulls);
    // Other test files enrich at the same time: this run's verdicts are counted, maybe beside theirs.
    expect(s.total_values_validated - before.total_values_validated).toBeGreaterThanOrEqual(mine.length);
    expect(s.total_out_of_range - before.total_out_of_range).toBeGreaterThanOrEqual(1);
    expect(s.fields_most_often_invalid.map((f) => f.field)).toContain("pe_ratio");
    expect(s.overall_quality_score).toBeGreaterThan(0);
    expect(s.overall_quality_score).toBeLessThanOrEqual(1);
    expect(s.most_reliable_providers.map((p) => p.provider)).toContain("delayed_provider");
  });
});
