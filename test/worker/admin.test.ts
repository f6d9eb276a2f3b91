import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, count, eq, gte, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assets,
  intradayBars,
  intradayCoverage,
  listings,
  pricesDaily,
  pricesIntraday,
  providerChecks,
  usageLogs,
} from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import worker from "../../src/index";
import type { CacheClear, CacheStats } from "../../src/routes/cache/schema";
import type { CleanupAnswer, DatabaseStats, StoredTickers } from "../../src/routes/database/schema";
import type { EodAnswer, IngestAnswer } from "../../src/routes/eod/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { createListing, makeBars, storeBars, uniqueTicker } from "../helpers/factories";
import { READ_ONLY_KEY } from "../helpers/keys";
import { resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const deps = buildDeps(env);
afterAll(() => deps.close());

describe("cache administration", () => {
  beforeAll(() => resetTickers("PEP"));

  it("lists cached tickers, clears one ticker's EOD answers, and an ingestion drops them too", async () => {
    expect((await call<EodAnswer>("/eod/PEP?period=1mo")).body.data_source).toBe("delayed_provider");
    // Read from the database: cached once each answer's background work (its cache write) settles.
    await call("/eod/PEP?period=1mo", { settleBackground: true });
    await call("/eod/PEP?period=3mo&fmt=csv", { settleBackground: true });
    let stats = await call<CacheStats>("/cache/stats");
    expect(stats.status).toBe(200);
    expect(stats.body.cached_tickers).toContain("PEP");
    expect(stats.body.ttl_seconds).toMatchObject({
      eod: 86400,
      fundamentals: 3600,
      fundamentals_deep: 86400,
      dcf: 21600,
      macro: 21600,
      news: 1800,
      screener: 900,
      technical_daily: 3600,
      technical_intraday: 60,
      quote: 60,
    });
    expect(["upstash", "memory"]).toContain(stats.body.backend);

    const byPeriod = await call<CacheClear>("/cache/clear/PEP?period=1mo", { method: "POST" });
    expect(byPeriod.body).toMatchObject({ status: "cleared", deleted: 0 });
    expect((await call<CacheStats>("/cache/stats")).body.cached_tickers).toContain("PEP");

    const cleared = await call<CacheClear>("/cache/clear/pep", { method: "POST" });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ status: "cleared", scope: "eod:PEP:*", deleted: 2 });
    expect((await call<CacheStats>("/cache/stats")).body.cached_tickers).not.toContain("PEP");

    // Cache again, then let an ingestion write rows: the cached answers of PEP must go.
    await call("/eod/PEP?period=1mo", { settleBackground: true });
    expect((await call<CacheStats>("/cache/stats")).body.cached_tickers).toContain("PEP");
    const [pep] = await deps.db.select({ id: listings.id }).from(listings).where(eq(listings.ticker, "PEP"));
    const last = await deps.db
      .select({ d: sql<string>`max(${pricesDaily.date})` })
      .from(pricesDaily)
      .where(eq(pricesDaily.listingId, Number(pep?.id)));
    await deps.db
      .delete(pricesDaily)
      .where(and(eq(pricesDaily.listingId, Number(pep?.id)), gte(pricesDaily.date, String(last[0]?.d))));
    const ingest = await call<IngestAnswer>("/historical/ingest", { method: "POST", body: { tickers: ["PEP"] } });
    expect(ingest.body.results[0]?.rows_written).toBe(1);
    stats = await call<CacheStats>("/cache/stats");
    expect(stats.body.cached_tickers).not.toContain("PEP");
  });

  it("POST /cache/clear deletes eod keys only, with a full-access key", async () => {
    await call("/eod/PEP?period=5d", { settleBackground: true });
    expect((await call<CacheStats>("/cache/stats")).body.cached_tickers).toContain("PEP");
    expect((await call("/cache/clear", { method: "POST", key: READ_ONLY_KEY })).status).toBe(403);
    const res = await call<CacheClear>("/cache/clear", { method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe("eod:*");
    // Other test files cache answers too; this file's PEP entry is the one it can count on.
    expect(res.body.deleted).toBeGreaterThanOrEqual(1);
    expect((await call<CacheStats>("/cache/stats")).body.cached_tickers).not.toContain("PEP");
  });
});

/** A provider check 45 days old and a usage-log row 400 days old: past both retentions. */
async function insertOldLogs(ticker: string) {
  await deps.db.insert(providerChecks).values({
    providerName: `test-${ticker}`,
    checkType: "canary",
    ticker: "OLD",
    success: true,
    checkedAt: new Date(Date.now() - 45 * 86_400_000),
  });
  await deps.db.insert(usageLogs).values({
    method: "GET",
    route: "/test",
    ticker: null,
    keyKind: "full",
    status: 200,
    latencyMs: 1,
    createdAt: new Date(Date.now() - 400 * 86_400_000),
  });
}

describe("database administration", () => {
  const ticker = uniqueTicker();
  let assetId = 0;
  let listingId = 0;
  beforeAll(async () => {
    const listing = await createListing(deps.db, { ticker, currency: "EUR" });
    assetId = listing.assetId;
    listingId = listing.id;
    // Bars from 1920 (12 sessions, 12 to 27 January): older than any real series, so this file's
    // cleanup touches nothing of the other tests'.
    await storeBars(deps.db, listing.id, makeBars(12, { start: "1920-01-12", price: () => 10.5 }), "test");
    await insertOldLogs(ticker);
  });
  afterAll(async () => {
    await deps.db.delete(assets).where(eq(assets.id, assetId));
  });

  it("reports stored prices and requests", async () => {
    const stats = await call<DatabaseStats>("/database/stats");
    expect(stats.status).toBe(200);
    expect(stats.body.prices.daily_bars).toBeGreaterThanOrEqual(12);
    const firstDate = stats.body.prices.first_date;
    expect(firstDate !== null && firstDate <= "1920-01-12").toBe(true);
    expect(stats.body.catalogue.assets).toBeGreaterThanOrEqual(81);
    // The requests of this file so far reach usage_logs through the queue (batches every 2 s): wait for them,
    // so the test holds when it runs alone.
    await expect
      .poll(async () => (await call<DatabaseStats>("/database/stats")).body.api_requests_24h, { timeout: 15_000 })
      .toBeGreaterThan(0);
    const tickers = await call<StoredTickers>("/database/tickers");
    const mine = tickers.body.tickers.find((t) => t.ticker === ticker);
    expect(mine).toMatchObject({
      first_date: "1920-01-12",
      last_date: "1920-01-27",
      bars: 12,
      last_source: "test",
      currency: "EUR",
    });
    expect(tickers.body.count).toBe(tickers.body.tickers.length);
    expect((await call("/database/ticker/NOSUCH")).status).toBe(404);
  });

  it("the daily retention job (Cron Trigger 45 3 * * *) deletes old logs and never a price", async () => {
    const usageRowAged = (days: number) =>
      deps.db
        .insert(usageLogs)
        .values({
          method: "GET",
          route: "/cron-test",
          keyKind: "full",
          status: 200,
          latencyMs: 1,
          createdAt: new Date(Date.now() - days * 86_400_000),
        })
        .returning({ id: usageLogs.id });
    const old = await usageRowAged(400);
    const recent = await usageRowAged(1);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "45 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const left = await deps.db
      .select({ id: usageLogs.id })
      .from(usageLogs)
      .where(inArray(usageLogs.id, [old[0]?.id ?? 0, recent[0]?.id ?? 0]));
    expect(left.map((r) => r.id)).toEqual([recent[0]?.id]);
    // This file's 45-day-old check went with it; its 1920 bars stay (prices are the cleanup route's).
    expect((await call<StoredTickers>("/database/tickers")).body.tickers.find((t) => t.ticker === ticker)?.bars).toBe(
      12,
    );
    const checks = await deps.db
      .select()
      .from(providerChecks)
      .where(eq(providerChecks.providerName, `test-${ticker}`));
    expect(checks).toEqual([]);
    // The rows the cleanup below counts on again.
    await insertOldLogs(ticker);
  });

  it("a dry run reports exactly what the real cleanup then deletes", async () => {
    // A 1920 session's intraday prices: a minute, an hour bar, and the record that the day is stored whole.
    const minute = new Date("1920-01-12T15:00:00Z");
    const candle = { listingId, open: "10", high: "11", low: "9", close: "10.5", volume: 1, source: "test" };
    await deps.db.insert(pricesIntraday).values({ ...candle, minute });
    await deps.db.insert(intradayBars).values({ ...candle, interval: "1h", start: minute });
    await deps.db.insert(intradayCoverage).values({ listingId, interval: "1h", day: "1920-01-12", fetchedAt: minute });
    const body = { days_to_keep: 36500, dry_run: true };
    const dry = await call<CleanupAnswer>("/database/cleanup", { method: "POST", body });
    expect(dry.status).toBe(200);
    expect(dry.body.dry_run).toBe(true);
    expect(dry.body.deleted.prices_daily).toBe(12);
    expect(dry.body.deleted.prices_intraday).toBe(2);
    expect(dry.body.deleted.provider_checks).toBeGreaterThanOrEqual(1);
    expect(dry.body.deleted.usage_logs).toBeGreaterThanOrEqual(1);
    // Nothing went.
    expect((await call<StoredTickers>("/database/tickers")).body.tickers.some((t) => t.ticker === ticker)).toBe(true);

    const real = await call<CleanupAnswer>("/database/cleanup", { method: "POST", body: { ...body, dry_run: false } });
    expect(real.status).toBe(200);
    expect(real.body.deleted).toEqual(dry.body.deleted);
    expect(real.body.cutoffs.prices_before).toBe(dry.body.cutoffs.prices_before);
    const after = await call<CleanupAnswer>("/database/cleanup", { method: "POST", body });
    expect(after.body.deleted).toMatchObject({
      prices_daily: 0,
      prices_intraday: 0,
      provider_checks: 0,
      usage_logs: 0,
    });
    expect(await deps.db.select().from(intradayCoverage).where(eq(intradayCoverage.listingId, listingId))).toEqual([]);
  });

  it("refuses a request with no body, naming the fields, and takes {} for the defaults", async () => {
    const before = await deps.db.select({ n: count() }).from(pricesDaily);
    for (const rawBody of [undefined, ""]) {
      const bare = await call<ErrorBody>("/database/cleanup", { method: "POST", rawBody });
      expect(bare.status).toBe(400);
      expect(bare.body.message).toContain("send {} for the defaults");
      expect(bare.body.details?.map((d) => d.path)).toEqual(["days_to_keep", "dry_run"]);
    }
    // Nothing was deleted by the bare requests.
    expect(await deps.db.select({ n: count() }).from(pricesDaily)).toEqual(before);
    // {} is a real run with the defaults; with the clock in 1990 its cutoffs reach no stored row.
    const defaults = await call<CleanupAnswer>("/database/cleanup", {
      method: "POST",
      body: {},
      env: { CLOCK_PINNED_AT: "1990-01-02T00:00:00Z" },
    });
    expect(defaults.status).toBe(200);
    expect(defaults.body).toMatchObject({ days_to_keep: 730, dry_run: false });
    expect(defaults.body.cutoffs.prices_before).toBe("1988-01-03");
    expect(await deps.db.select({ n: count() }).from(pricesDaily)).toEqual(before);
  });

  it("keeps at least 30 days and defaults to 730", async () => {
    const dry = await call<CleanupAnswer>("/database/cleanup", { method: "POST", body: { dry_run: true } });
    expect(dry.body.days_to_keep).toBe(730);
    expect(dry.body.dry_run).toBe(true);
    for (const body of [
      { days_to_keep: 29 },
      { days_to_keep: "100" },
      { days_to_keep: 40.5 },
      { dry_run: "yes" },
      { days: 100 },
    ]) {
      const res = await call<ErrorBody>("/database/cleanup", { method: "POST", body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Invalid request");
    }
    expect(
      (await call("/database/cleanup", { method: "POST", body: { dry_run: true }, key: READ_ONLY_KEY })).status,
    ).toBe(403);
  });
});
