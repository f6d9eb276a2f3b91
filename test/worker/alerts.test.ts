import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, validationResults } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import worker from "../../src/index";
import type { AlertsBody, ResolveBody } from "../../src/routes/health/alerts-schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

/**
 * Alerts on providers' success rates. The verdicts are this file's own, of two providers named for
 * it (written as the validation layer writes them), so that other files' verdicts change nothing here.
 */
const suffix = Math.random().toString(36).slice(2, 8);
const CRITICAL = `test_critical_${suffix}`;
const WARNING = `test_warning_${suffix}`;
const deps = buildDeps(env);

function verdicts(provider: string, valid: number, invalid: number) {
  const today = new Date().toISOString().slice(0, 10);
  return Array.from({ length: valid + invalid }, (_, i) => ({
    providerName: provider,
    ticker: "TST",
    field: `test_field_${i}`,
    value: "1",
    status: i < valid ? ("valid" as const) : ("out_of_range" as const),
    reason: i < valid ? null : "test",
    validatedOn: today,
  }));
}

async function runAlertCheck() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "0 7 * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const alertsOf = async (provider: string, extra = "") =>
  (await call<AlertsBody>(`/health/alerts?provider_name=${provider}${extra}`)).body;

describe("high_outlier_rate alerts and their resolution", () => {
  beforeAll(async () => {
    // 6 of 10 valid: under the critical 70 %; 8 of 10: under the warning 85 %.
    await deps.db.insert(validationResults).values([...verdicts(CRITICAL, 6, 4), ...verdicts(WARNING, 8, 2)]);
  });
  afterAll(async () => {
    await deps.db.delete(validationResults).where(inArray(validationResults.providerName, [CRITICAL, WARNING]));
    await deps.db.delete(alerts).where(inArray(alerts.providerName, [CRITICAL, WARNING]));
    await deps.close();
  });

  it("the daily check (Cron Trigger 0 7 * * *) opens one alert per provider of the severity its rate falls to", async () => {
    await runAlertCheck();
    const critical = await alertsOf(CRITICAL);
    expect(critical.count).toBe(1);
    expect(critical.alerts[0]).toMatchObject({
      severity: "critical",
      type: "high_outlier_rate",
      provider_name: CRITICAL,
      is_resolved: false,
      resolved_at: null,
      details: { success_rate: 0.6, values: 10, threshold: 0.7 },
    });
    expect((await alertsOf(WARNING)).alerts.map((a) => a.severity)).toEqual(["warning"]);
    expect((await alertsOf(WARNING, "&severity=critical")).count).toBe(0);
    // A problem already open is not opened twice.
    await runAlertCheck();
    expect((await alertsOf(CRITICAL)).count).toBe(1);
  });

  it("resolves with the note and the time with its offset; a second resolve says already_resolved; unknown is a 404", async () => {
    const id = (await alertsOf(CRITICAL)).alerts[0]?.alert_id;
    expect((await call(`/health/alerts/${id}/resolve`, { method: "POST", key: READ_ONLY_KEY })).status).toBe(403);
    const res = await call<ResolveBody>(`/health/alerts/${id}/resolve?resolution_note=provider%20fixed`, {
      method: "POST",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "resolved", alert_id: id, resolved_at: expect.stringMatching(/\+00:00$/) });
    const again = await call<ResolveBody>(`/health/alerts/${id}/resolve`, { method: "POST" });
    expect(again.body).toEqual({ status: "already_resolved" });
    expect((await alertsOf(CRITICAL)).count).toBe(0);
    const all = await alertsOf(CRITICAL, "&include_resolved=true");
    expect(all.alerts[0]).toMatchObject({ alert_id: id, is_resolved: true, resolution_note: "provider fixed" });
    expect((await call<ErrorBody>("/health/alerts/2147483000/resolve", { method: "POST" })).status).toBe(404);
    expect((await call<ErrorBody>("/health/alerts/abc/resolve", { method: "POST" })).status).toBe(400);
    // The rate is still low: the next check opens a new alert.
    await runAlertCheck();
    expect((await alertsOf(CRITICAL)).count).toBe(1);
  });
});
