import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, desc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adjustmentChecks, alerts, priceFindings, providerChecks, validationResults } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import { CANARY_INSTRUMENTS } from "../../src/domain/monitoring/canary-references";
import worker from "../../src/index";
import { cacheKeys } from "../../src/platform/cache";
import type { EodAnswer } from "../../src/routes/eod/schema";
import type { AlertsBody, ResolveBody } from "../../src/routes/health/alerts-schema";
import type {
  CanaryHistoryBody,
  CanaryQueuedBody,
  ProviderHealthBody,
  ProvidersHealthBody,
} from "../../src/routes/health/monitoring-schema";
import type { ValidationStatsBody } from "../../src/routes/health/stats";
import type { ErrorBody } from "../../src/routes/openapi";
import { simCompany } from "../../tools/sandbox/fundamentals-data";
import { quoteSummaryResult } from "../../tools/sandbox/yahoo-fundamentals";
import { READ_ONLY_KEY } from "../helpers/keys";
import { clearFault, fault, glitchAt, resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

/**
 * The canary against the simulators. No other test file runs it (the nets run on a stack of their
 * own), nor faults its reference instruments, so the checks and canary_failed alerts of
 * the three fundamentals providers are this file's own.
 */
const pages = inject("scrapedSimUrl");
const yahoo = inject("delayedSimUrl");
const PROVIDERS = ["delayed_provider", "scraped_businessinsider", "scraped_onvista", "ecb_reference_rates"];
const BI = "scraped_businessinsider";
/** The US page's slug of JNJ: the fault is set on it alone. */
const JNJ_PAGE = "jnj";
const deps = buildDeps(env);
const db = deps.db;

/**
 * Checks per provider and run: five fields of four instruments; three of the two each page covers;
 * the ECB's daily file: its day, its currencies and four reference rates (in a run of all only).
 */
const PER_RUN = {
  delayed_provider: 20,
  scraped_businessinsider: 6,
  scraped_onvista: 6,
  ecb_reference_rates: 6,
} as const;

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "30 6 * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** POST /health/canary/run, returning once its background run has settled. */
const runNow = (query = "") =>
  call<CanaryQueuedBody>(`/health/canary/run${query}`, { method: "POST", settleBackground: true });

const openCanaryAlerts = async (provider: string) =>
  (await call<AlertsBody>(`/health/alerts?provider_name=${provider}`)).body.alerts.filter(
    (a) => a.type === "canary_failed",
  );

async function forgetEverything() {
  await db.delete(providerChecks).where(inArray(providerChecks.providerName, PROVIDERS));
  // The prices' adjustment checks and sanity findings other files' ingestions left: each is a canary
  // check of its own; and the reference instruments' stored bars, whose weekly and monthly bars it
  // compares with the provider's when there are any.
  await db.delete(adjustmentChecks);
  await db.delete(priceFindings);
  await resetTickers(...CANARY_INSTRUMENTS.map((i) => i.ticker));
  // Only the alerts a canary opens: a high_outlier_rate one may come from other files' verdicts.
  await db.delete(alerts).where(and(inArray(alerts.providerName, PROVIDERS), eq(alerts.type, "canary_failed")));
  const tickers = CANARY_INSTRUMENTS.map((i) => i.ticker);
  await db
    .delete(validationResults)
    .where(and(inArray(validationResults.providerName, PROVIDERS), inArray(validationResults.ticker, tickers)));
  await deps.cache.delete(cacheKeys.healthSummary());
}

describe("the canary, provider health and canary_failed alerts", () => {
  beforeAll(forgetEverything);
  afterAll(async () => {
    await clearFault(pages, JNJ_PAGE);
    await forgetEverything();
    await deps.close();
  });

  /** The validation statistics before the first run: the runs' verdicts are counted on top. */
  let statsBefore: ValidationStatsBody;

  it("before any run, GET /health/providers is an empty list", async () => {
    statsBefore = (await call<ValidationStatsBody>("/health/stats")).body;
    const res = await call<ProvidersHealthBody>("/health/providers");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_providers: 0, healthy: 0, degraded: 0, down: 0, providers: [] });
    expect(res.body.source).toBe("database");
  });

  it("the daily Cron Trigger (30 6 * * *) checks every provider: each value stored with its range, all passing", async () => {
    await runCron();
    const history = (await call<CanaryHistoryBody>("/health/canary/history?limit=1000")).body;
    expect(history.count).toBe(20 + 6 + 6 + 6);
    for (const c of history.checks.filter((c) => c.provider_name !== "ecb_reference_rates")) {
      const range = CANARY_INSTRUMENTS.find((i) => i.ticker === c.ticker)?.expected[c.field ?? ""];
      expect(range, `${c.provider_name} ${c.ticker} ${c.field}`).toBeDefined();
      expect([c.expected_min, c.expected_max]).toEqual(range);
      expect(c.passed, `${c.provider_name} ${c.ticker} ${c.field}: ${c.error}`).toBe(true);
      expect(c.value).toBeGreaterThanOrEqual(c.expected_min as number);
      expect(c.value).toBeLessThanOrEqual(c.expected_max as number);
      expect(Number.isInteger(c.latency_ms)).toBe(true);
      expect(c.checked_at).toMatch(/\+00:00$/);
    }
    const byProvider = (p: string) => history.checks.filter((c) => c.provider_name === p);
    expect(PROVIDERS.map((p) => byProvider(p).length)).toEqual([20, 6, 6, 6]);
    // The ECB's daily file: the day due, its 30 currencies, and four pairs within their ranges.
    const ecb = byProvider("ecb_reference_rates");
    expect(ecb.every((c) => c.passed)).toBe(true);
    expect(ecb.map((c) => [c.ticker, c.field]).sort()).toEqual([
      ["EUR", "currencies"],
      ["EUR", "published"],
      ["EUR/CHF", "rate"],
      ["EUR/GBP", "rate"],
      ["EUR/JPY", "rate"],
      ["EUR/USD", "rate"],
    ]);
    expect(ecb.find((c) => c.ticker === "EUR/USD")).toMatchObject({ expected_min: 0.75, expected_max: 1.75 });
    // Each page covers its own side of the Atlantic.
    expect(new Set(byProvider(BI).map((c) => c.ticker))).toEqual(new Set(["MSFT", "JNJ"]));
    expect(new Set(byProvider("scraped_onvista").map((c) => c.ticker))).toEqual(new Set(["OR.PA", "MUV2.DE"]));
    // Filters: one provider and ticker, newest first, limited.
    const some = (await call<CanaryHistoryBody>(`/health/canary/history?provider_name=${BI}&ticker=jnj&limit=2`)).body;
    expect(some.checks.map((c) => [c.provider_name, c.ticker])).toEqual([
      [BI, "JNJ"],
      [BI, "JNJ"],
    ]);
  });

  it("after a run every watched provider has a label, a success rate and a latency", async () => {
    const cached = (await call<ProvidersHealthBody>("/health/providers")).body;
    expect(cached.source).toBe("cache");
    expect(cached).toMatchObject({ total_providers: 4, healthy: 4, degraded: 0, down: 0 });
    for (const p of cached.providers) {
      // The spec's cached summary: no latency, last check or canary outcome, no alerts counted...
      expect(p).toMatchObject({ is_healthy: true, success_rate_7d: 1, status_label: "OK" });
      expect(p).toMatchObject({ avg_latency_ms: null, last_check: null, canary_passed: null, active_alerts: 0 });
      // ...and each provider's detail has them at once.
      const detail = await call<ProviderHealthBody>(`/health/providers/${p.name}?days=3`);
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({
        name: p.name,
        status: "OK",
        success_rate_7d: 1,
        success_rate_30d: 1,
        days: 3,
        canary_passed: true,
        recent_failures: [],
      });
      expect(detail.body.avg_latency_ms).toEqual(expect.any(Number));
      expect(detail.body.last_check).toMatch(/\+00:00$/);
      // One run: its checks, all passed, on the day it ran.
      const checks = PER_RUN[p.name as keyof typeof PER_RUN];
      expect(detail.body.daily_stats.reduce((n, d) => n + d.checks, 0)).toBe(checks);
      expect(detail.body.daily_stats.reduce((n, d) => n + d.passed, 0)).toBe(checks);
      for (const d of detail.body.daily_stats) expect(d.success_rate).toBe(1);
    }
    await deps.cache.delete(cacheKeys.healthSummary());
    const stored = (await call<ProvidersHealthBody>("/health/providers")).body;
    expect(stored.source).toBe("database");
    expect(stored.providers.map((p) => p.name)).toEqual([...PROVIDERS].sort());
    for (const p of stored.providers) {
      expect(p).toMatchObject({ success_rate_7d: 1, status_label: "OK", canary_passed: true });
      expect(p.avg_latency_ms).toEqual(expect.any(Number));
      expect(p.last_check).toMatch(/\+00:00$/);
      const open = (await call<AlertsBody>(`/health/alerts?provider_name=${p.name}`)).body.alerts;
      expect(open.filter((a) => a.type === "canary_failed")).toEqual([]);
      expect(p.active_alerts).toBe(open.length);
    }
  });

  it("with a page's units changed, one canary_failed alert opens, a third run opens none, and the label drops", async () => {
    const set = await fetch(`${pages}/__sandbox/faults`, {
      method: "POST",
      body: JSON.stringify({ symbol: JNJ_PAGE, mode: "out_of_range" }),
    });
    expect(set.ok).toBe(true);
    const queued = await runNow(`?provider_name=${BI}`);
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({ status: "queued", provider: BI });
    const open = await openCanaryAlerts(BI);
    expect(open.length).toBe(1);
    // JNJ's P/E 1,000 times and its yield 100 times too large: 4 of 6 checks pass, under the critical 70 %.
    expect(open[0]).toMatchObject({ severity: "critical", provider_name: BI, is_resolved: false });
    expect(open[0]?.message).toContain("2 of 6 canary checks failed");
    expect(open[0]?.message).toContain("JNJ pe_ratio");
    const failed = (await call<CanaryHistoryBody>(`/health/canary/history?provider_name=${BI}&ticker=JNJ&limit=3`)).body
      .checks;
    const pe = failed.find((c) => c.field === "pe_ratio");
    expect(pe?.passed).toBe(false);
    expect(pe?.value).toBeGreaterThan(1500);
    expect(failed.find((c) => c.field === "dividend_yield")?.error).toMatch(/^refused as out_of_range/);
    // The other providers were not run.
    expect((await call<CanaryHistoryBody>("/health/canary/history?provider_name=scraped_onvista")).body.count).toBe(6);

    await runNow(`?provider_name=${BI}`);
    expect((await openCanaryAlerts(BI)).map((a) => a.alert_id)).toEqual([open[0]?.alert_id]);

    // 6 + 4 + 4 of 18 checks passed over the week: 77.8 %, DEGRADED.
    const summary = (await call<ProvidersHealthBody>("/health/providers")).body;
    expect(summary.providers.find((p) => p.name === BI)).toMatchObject({
      success_rate_7d: 0.7778,
      status_label: "DEGRADED",
      is_healthy: false,
    });
    expect(summary).toMatchObject({ healthy: 3, degraded: 1, down: 0 });
    const detail = (await call<ProviderHealthBody>(`/health/providers/${BI}`)).body;
    expect(detail).toMatchObject({ status: "DEGRADED", canary_passed: false });
    expect(detail.active_alerts).toBe((await call<AlertsBody>(`/health/alerts?provider_name=${BI}`)).body.count);
    expect(detail.recent_failures.length).toBe(4);
    expect(detail.daily_stats.reduce((n, d) => n + d.checks, 0)).toBe(18);
    expect(detail.daily_stats.reduce((n, d) => n + d.passed, 0)).toBe(14);

    const id = open[0]?.alert_id;
    expect((await call(`/health/alerts/${id}/resolve`, { method: "POST", key: READ_ONLY_KEY })).status).toBe(403);
    const resolved = await call<ResolveBody>(`/health/alerts/${id}/resolve?resolution_note=page%20units%20fixed`, {
      method: "POST",
    });
    expect(resolved.body).toEqual({ status: "resolved", alert_id: id, resolved_at: expect.stringMatching(/\+00:00$/) });
    expect((await call<ResolveBody>(`/health/alerts/${id}/resolve`, { method: "POST" })).body).toEqual({
      status: "already_resolved",
    });
    expect(await openCanaryAlerts(BI)).toEqual([]);

    // The page is fixed: a run passes and opens nothing.
    await clearFault(pages, JNJ_PAGE);
    await runNow(`?provider_name=${BI}`);
    expect(await openCanaryAlerts(BI)).toEqual([]);
    const latest = (await call<ProviderHealthBody>(`/health/providers/${BI}`)).body;
    expect(latest.canary_passed).toBe(true);
    expect(latest.success_rate_7d).toBe(0.8333);
  });

  it("stores each run's verdicts for GET /health/stats", async () => {
    const mine = await db
      .select()
      .from(validationResults)
      .where(and(eq(validationResults.providerName, BI), eq(validationResults.ticker, "JNJ")));
    // One verdict per field and day, the latest run's (the page fixed); runs may straddle midnight UTC.
    const lastDay = mine
      .map((v) => v.validatedOn)
      .sort()
      .at(-1);
    const latest = mine.filter((v) => v.validatedOn === lastDay);
    expect(latest.map((v) => [v.field, v.status]).sort()).toEqual([
      ["dividend_yield", "valid"],
      ["eps_ttm", "valid"],
      ["pe_ratio", "valid"],
    ]);
    // The first run alone added 32 verdicts (five fields of four instruments, three of two per page),
    // on top of what was there and what other files add meanwhile.
    const stats = (await call<ValidationStatsBody>("/health/stats")).body;
    expect(stats.total_values_validated - statsBefore.total_values_validated).toBeGreaterThanOrEqual(32);
  });

  it("notices a ratio the delayed provider sends in percent, though users still get it converted", async () => {
    // The simulator's yield of JNJ as a ratio, and as it sends it in percent under the fault.
    const company = simCompany("JNJ");
    if (!company) throw new Error("JNJ is not simulated");
    const sent = (
      quoteSummaryResult(company, ["summaryDetail"], { formatted: false, percentScaled: true }) as {
        summaryDetail: { dividendYield: number };
      }
    ).summaryDetail.dividendYield;
    const ratio = Number((sent / 100).toFixed(4));
    await fault(yahoo, "JNJ", "percent_scaled", 1);
    await runNow("?provider_name=delayed_provider");
    const open = await openCanaryAlerts("delayed_provider");
    expect(open.length).toBe(1);
    // 19 of 20 checks pass: a warning.
    expect(open[0]?.severity).toBe("warning");
    expect(open[0]?.message).toBe(
      `delayed_provider: 1 of 20 canary checks failed (JNJ dividend_yield: sent percent-scaled (${sent} for ${sent} %) by a provider that sends ratios)`,
    );
    const checks = (
      await call<CanaryHistoryBody>("/health/canary/history?provider_name=delayed_provider&ticker=JNJ&limit=5")
    ).body.checks;
    expect(checks.find((c) => c.field === "dividend_yield")).toMatchObject({
      passed: false,
      value: ratio,
      expected_min: 0.012,
      expected_max: 0.05,
    });
    // The validation layer converted it: a valid verdict.
    const [verdict] = await db
      .select()
      .from(validationResults)
      .where(
        and(
          eq(validationResults.providerName, "delayed_provider"),
          eq(validationResults.ticker, "JNJ"),
          eq(validationResults.field, "dividend_yield"),
        ),
      )
      .orderBy(desc(validationResults.validatedAt))
      .limit(1);
    expect(verdict).toMatchObject({ status: "valid", value: String(sent) });
  });

  it("fails on a format change: a field of another type is a schema_drift check and verdict, counted by /health", async () => {
    await db.delete(alerts).where(and(eq(alerts.providerName, "delayed_provider"), eq(alerts.type, "canary_failed")));
    const driftBefore = (await call<ValidationStatsBody>("/health/stats")).body.total_schema_drift;
    await fault(yahoo, "MSFT", "drift", 1);
    await runNow("?provider_name=delayed_provider");
    const checks = (
      await call<CanaryHistoryBody>("/health/canary/history?provider_name=delayed_provider&ticker=MSFT&limit=10")
    ).body.checks;
    const field = "quoteSummary:summaryDetail.trailingPE";
    const drifted = checks.find((c) => c.field === field);
    expect(drifted).toMatchObject({ passed: false, value: null });
    expect(drifted?.error).toMatch(/^schema drift: expected a number, saw a string "[\d.]+x"$/);
    // The figure it carried is lost, and only that one: the other four of MSFT pass.
    const others = checks.filter((c) => c.field !== field);
    expect(others.find((c) => c.field === "pe_ratio")).toMatchObject({ passed: false, value: null });
    expect(others.filter((c) => c.field !== "pe_ratio").every((c) => c.passed)).toBe(true);
    const open = await openCanaryAlerts("delayed_provider");
    expect(open.length).toBe(1);
    expect(open[0]?.message).toContain(`MSFT ${field}: schema drift: expected a number`);
    const stats = (await call<ValidationStatsBody>("/health/stats")).body;
    expect(stats.total_schema_drift).toBe(driftBefore + 1);
    expect(stats.schema_drift).toContainEqual({ provider: "delayed_provider", field, count: 1 });
    const detail = (await call<ProviderHealthBody>("/health/providers/delayed_provider")).body;
    expect(detail.schema_drift.places).toContainEqual(
      expect.objectContaining({ field, seen: 1, reason: expect.stringMatching(/^expected a number, saw a string/) }),
    );
  });

  it("refuses what it cannot answer: an unmonitored provider (404), a window past retention, an unknown provider (400)", async () => {
    const unknown = await call<ErrorBody>("/health/providers/finnhub");
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain("monitored providers: delayed_provider");
    expect((await call<ErrorBody>("/health/providers/delayed_provider?days=31")).status).toBe(400);
    expect((await call<ErrorBody>("/health/canary/history?provider_name=nobody")).status).toBe(400);
    expect((await call<ErrorBody>("/health/canary/run?provider_name=nobody", { method: "POST" })).status).toBe(400);
    expect((await call<ErrorBody>("/health/canary/run", { method: "POST", key: READ_ONLY_KEY })).status).toBe(403);
  });
});

describe("the canary's checks of the stored prices", () => {
  /** Friday 27 November 2026, as the other price tests. */
  const AT = "2026-11-27T15:00:00Z";
  beforeAll(forgetEverything);
  afterAll(forgetEverything);

  it("finds weekly and monthly closes the provider adjusted for dividends, stores them and fails the check", async () => {
    const loaded = await call<EodAnswer>("/eod/MSFT?period=1y", { at: AT });
    expect(loaded.status).toBe(200);
    await glitchAt(yahoo, "MSFT", "period_adjusted", "2026-11-02");
    await call<CanaryQueuedBody>("/health/canary/run?provider_name=delayed_provider", {
      method: "POST",
      settleBackground: true,
      at: AT,
    });
    const history = (await call<CanaryHistoryBody>("/health/canary/history?ticker=MSFT&limit=100", { at: AT })).body;
    const weekly = history.checks.find((c) => c.field === "1wk_close");
    const monthly = history.checks.find((c) => c.field === "1mo_close");
    expect(weekly).toMatchObject({ passed: false });
    expect(weekly?.error).toContain("(they repeat the dividend-adjusted closes)");
    expect(monthly).toMatchObject({ passed: false });
    // The MSFT of the simulator pays quarterly: the weeks before its ex-date of 16 November depart.
    const eod = await call<EodAnswer>("/eod/MSFT?period=weekly&from=2026-08-03&to=2026-11-20", { at: AT });
    const found = eod.body.warnings.filter((w) => w.kind === "period_adjusted");
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((w) => w.evidence.matches_adjusted === true)).toBe(true);
    const stats = (await call<ValidationStatsBody>("/health/stats", { at: AT })).body;
    expect(stats.price_sanity.by_kind.find((k) => k.kind === "period_adjusted")).toMatchObject({ listings: 1 });
    const summary = history.checks.find((c) => c.field === "price_sanity" && c.ticker === "MSFT");
    expect(summary).toMatchObject({ passed: false });
  });

  it("passes the same checks when the provider's longer bars repeat the daily closes", async () => {
    await db.delete(priceFindings);
    await call<CanaryQueuedBody>("/health/canary/run?provider_name=delayed_provider", {
      method: "POST",
      settleBackground: true,
      at: AT,
    });
    const history = (await call<CanaryHistoryBody>("/health/canary/history?ticker=MSFT&limit=100", { at: AT })).body;
    const newest = history.checks.filter((c) => c.field === "1wk_close" || c.field === "1mo_close").slice(0, 2);
    expect(newest.map((c) => [c.field, c.passed, c.value]).sort()).toEqual([
      ["1mo_close", true, 0],
      ["1wk_close", true, 0],
    ]);
  });
});
