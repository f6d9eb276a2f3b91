import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import Decimal from "decimal.js";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { storedRate } from "../../src/db/repositories/macro";
import { buildDeps } from "../../src/deps";
import worker from "../../src/index";
import type { MacroRatesBody } from "../../src/routes/macro/schema";
import { dgs10On } from "../../tools/sandbox/fred";
import { fault, resetMacroRates, simRequests } from "../helpers/listings";
import { call } from "../helpers/worker-http";

/**
 * The macro rate and the valuation in one file: both read the one stored risk-free rate, which these
 * tests set and forget (test files run side by side).
 */
const fred = inject("fredSimUrl");
const AT = "2026-11-27T18:00:00Z";
const hoursAfter = (h: number) => new Date(Date.parse(AT) + h * 3_600_000).toISOString();
const ratio = (percent: string) => new Decimal(percent).div(100).toFixed();
const asked = async () => (await simRequests(fred))["observations DGS10"] ?? 0;

async function stored() {
  const { db } = buildDeps(env);
  try {
    return await storedRate(db.db, "DGS10");
  } finally {
    await db.close();
  }
}

describe("GET /macro/rates", () => {
  beforeEach(resetMacroRates);

  it("reads DGS10 from the macro provider, steps over the holiday's '.', answers a ratio string, then from the cache", async () => {
    // The simulator lists 2026-11-26 (Thanksgiving) as ".": the newest real observation is the 25th's.
    expect(dgs10On("2026-11-26")).toBe(".");
    const res = await call<MacroRatesBody>("/macro/rates", { at: AT });
    expect(res.status).toBe(200);
    expect(res.body.risk_free_rate).toEqual({
      series_id: "DGS10",
      label: "Market Yield on U.S. Treasury Securities at 10-Year Constant Maturity",
      value: ratio(dgs10On("2026-11-25")),
      unit: "percent",
      observation_date: "2026-11-25",
    });
    expect(res.body.risk_free_rate?.value).toMatch(/^0\.0\d+$/);
    expect(res.body.meta).toEqual({ fetched_at: expect.any(String), cache_hit: false, stale: false });
    expectReadAt(res.body.meta.fetched_at, AT);
    const row = await stored();
    expect([row?.observationDate, new Decimal(row?.value ?? "0").toFixed()]).toEqual([
      "2026-11-25",
      ratio(dgs10On("2026-11-25")),
    ]);
    const again = await call<MacroRatesBody>("/macro/rates", { at: AT });
    expect(again.body.meta.cache_hit).toBe(true);
    expect(again.body.risk_free_rate).toEqual(res.body.risk_free_rate);
  });

  it("answers a value read less than 6 hours ago from the database, without asking the provider", async () => {
    await call("/macro/rates", { at: AT });
    await resetMacroCacheOnly();
    const before = await asked();
    const res = await call<MacroRatesBody>("/macro/rates", { at: hoursAfter(5) });
    expect(await asked()).toBe(before);
    expect(res.body.meta).toMatchObject({ stale: false, cache_hit: false });
    expectReadAt(res.body.meta.fetched_at, AT);
  });

  it("with the provider failing, answers the older stored value, marked stale with the reason, and does not cache it", async () => {
    await call("/macro/rates", { at: AT });
    await resetMacroCacheOnly();
    await fault(fred, "DGS10", "500", 1000);
    const res = await call<MacroRatesBody>("/macro/rates", { at: hoursAfter(7) });
    expect(res.status).toBe(200);
    expect(res.body.risk_free_rate?.value).toBe(ratio(dgs10On("2026-11-25")));
    expect(res.body.meta).toMatchObject({ stale: true, cache_hit: false });
    expect(res.body.meta.note).toBe("macro_provider: HTTP 500");
    const before = await asked();
    expect((await call<MacroRatesBody>("/macro/rates", { at: hoursAfter(7) })).body.meta.cache_hit).toBe(false);
    expect(await asked()).toBe(before + 1);
  });

  it("with nothing stored and the provider failing, risk_free_rate is null and the answer says why", async () => {
    await fault(fred, "DGS10", "ratelimit", 1000);
    const res = await call<MacroRatesBody>("/macro/rates", { at: AT });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      risk_free_rate: null,
      meta: { fetched_at: null, cache_hit: false, stale: false, note: "macro_provider: rate limit reached (HTTP 429)" },
    });
  });

  it("names a refused key without echoing it, and does not ask without a key", async () => {
    const wrong = "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz";
    const refused = await call<MacroRatesBody>("/macro/rates", { at: AT, env: { MACRO_API_KEY: wrong } });
    expect(refused.body.meta.note).toBe("macro_provider: the API key was refused (MACRO_API_KEY)");
    expect(JSON.stringify(refused.body)).not.toContain(wrong);
    const before = await asked();
    const none = await call<MacroRatesBody>("/macro/rates", { at: AT, env: { MACRO_API_KEY: "" } });
    expect(none.body.risk_free_rate).toBeNull();
    expect(none.body.meta.note).toBe("macro_provider not asked: MACRO_API_KEY is not set");
    expect(await asked()).toBe(before);
  });

  it("is refreshed by the daily Cron Trigger through the Workers runtime's scheduled handler", async () => {
    expect(await stored()).toBeNull();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "15 6 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await stored())?.observationDate).toBe("2026-11-25");
  });
});

/** The pinned clock runs on from its pin (an app per pin, kept across tests): read within a minute of `at`. */
function expectReadAt(fetchedAt: string | null, at: string) {
  const ms = Date.parse(fetchedAt ?? "") - Date.parse(at);
  expect(ms, String(fetchedAt)).toBeGreaterThanOrEqual(0);
  expect(ms, String(fetchedAt)).toBeLessThan(60_000);
}

async function resetMacroCacheOnly() {
  await buildDeps(env).cache.deletePattern("macro:*");
}
