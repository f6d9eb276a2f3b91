import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { buildDeps } from "../../src/deps";
import { REFRESH_VENUES, type RefreshMessage } from "../../src/domain/catalogue-refresh";
import { SNAPSHOT_SET } from "../../src/domain/indicators/snapshots";
import worker from "../../src/index";
import type { RefreshRunSchema } from "../../src/routes/catalogue/refresh-schema";
import { REFRESH_QUEUE_NAME } from "../../src/services/catalogue/refresh/consume-refresh";
import { startFirstRefresh } from "../../src/services/catalogue/refresh/start-refresh";
import { READ_ONLY_KEY } from "../helpers/keys";
import { clearFault, fault, resetTickers, simRequests, storedBars } from "../helpers/listings";
import { call } from "../helpers/worker-http";

type Run = z.infer<typeof RefreshRunSchema>;

/** NYSE Arca's listings: three ETFs that no other test reads, so runs over that venue are this file's own. */
const VENUE = "NYSEARCA";
const TICKERS = ["IVV", "SPY", "VOO"];

async function closeRunningRuns(): Promise<void> {
  const { db } = buildDeps(env);
  try {
    await db.db.execute(sql`UPDATE catalogue_refresh_runs SET finished_at = now() WHERE finished_at IS NULL`);
  } finally {
    await db.close();
  }
}

async function start(): Promise<{ started: boolean; run: Run }> {
  const res = await call<{ started: boolean; run: Run }>("/catalogue/refresh", {
    method: "POST",
    body: { exchanges: [VENUE] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** The run once its consumer has done every listing (the queue delivers within a second). */
async function finished(id: number): Promise<Run> {
  const read = async () => {
    const res = await call<{ runs: Run[] }>("/catalogue/refresh?limit=50", { key: READ_ONLY_KEY });
    return res.body.runs.find((r) => r.id === id);
  };
  await expect.poll(async () => (await read())?.status, { timeout: 60_000, interval: 250 }).toBe("finished");
  const run = await read();
  if (!run) throw new Error(`run ${id} not listed`);
  return run;
}

const chartRequests = async (symbols: readonly string[]) => {
  const counts = await simRequests(inject("delayedSimUrl"));
  return symbols.reduce(
    (n, s) =>
      n +
      Object.entries(counts)
        .filter(([k]) => k.endsWith(` ${s}`))
        .reduce((a, [, v]) => a + v, 0),
    0,
  );
};

describe("the catalogue refresh", () => {
  beforeAll(async () => {
    await closeRunningRuns();
    await resetTickers(...TICKERS);
  });

  it("refreshes every listing of the venue, reports the one whose providers fail, and never stops for it", async () => {
    // VOO fails at both providers on every attempt: the delayed one with a 500 (a retry may mend
    // it), the stream one with an unknown symbol.
    await fault(inject("delayedSimUrl"), "VOO", "500", 100);
    await fault(inject("streamSimUrl"), "AMEX:VOO", "symbol_error", 100);
    try {
      const { started, run } = await start();
      expect(started).toBe(true);
      expect(run).toMatchObject({ trigger: "request", status: "running", listings: { queued: 3 } });
      expect(Object.keys(run.sessions)).toEqual([VENUE]);
      const done = await finished(run.id);
      expect(done.listings).toEqual({ queued: 3, pending: 0, refreshed: 2, unchanged: 0, failed: 1 });
      expect(done.failures).toHaveLength(1);
      expect(done.failures[0]).toMatchObject({ ticker: "VOO", exchange: VENUE, attempts: 4 });
      expect(done.failures[0]?.reason).toMatch(/delayed_provider: .*HTTP 500/);
      expect(done.failures[0]?.reason).toMatch(/stream_provider: /);
      expect(done.duration_seconds).toBeGreaterThan(0);
      for (const t of ["IVV", "SPY"]) expect((await storedBars(t)).rows).toBeGreaterThan(2000);
      expect((await storedBars("VOO")).rows).toBe(0);
    } finally {
      await clearFault(inject("delayedSimUrl"), "VOO");
      await clearFault(inject("streamSimUrl"), "AMEX:VOO");
    }
  });

  it("runs one at a time: a second start answers the running run", async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect([a.started, b.started].sort()).toEqual([false, true]);
    expect(a.run.id).toBe(b.run.id);
    const done = await finished(a.run.id);
    // The listing that failed is refreshed now; the others had nothing new.
    expect(done.listings).toEqual({ queued: 3, pending: 0, refreshed: 1, unchanged: 2, failed: 0 });
  });

  it("changes nothing when run again the same day, and asks no provider for prices already stored", async () => {
    const before = { bars: await Promise.all(TICKERS.map(storedBars)), requests: await chartRequests(TICKERS) };
    const { run } = await start();
    const done = await finished(run.id);
    expect(done.listings).toEqual({ queued: 3, pending: 0, refreshed: 0, unchanged: 3, failed: 0 });
    expect(done).toMatchObject({ bars_written: 0, provider_requests: 0 });
    expect(await Promise.all(TICKERS.map(storedBars))).toEqual(before.bars);
    expect(await chartRequests(TICKERS)).toBe(before.requests);
  });

  it("writes each listing's indicator snapshots, and restores missing ones without asking a provider", async () => {
    const { db } = buildDeps(env);
    try {
      const snapshotsOf = async (ticker: string) =>
        (
          await db.db.execute<{ n: number; as_of: string | null }>(sql`
            SELECT count(*)::int AS n, min(s.as_of)::text AS as_of FROM indicator_snapshots s
            JOIN listings l ON l.id = s.listing_id WHERE l.ticker = ${ticker}`)
        ).rows[0];
      const lastBar = async (ticker: string) =>
        (
          await db.db.execute<{ d: string }>(sql`
            SELECT max(p.date)::text AS d FROM prices_daily p JOIN listings l ON l.id = p.listing_id
            WHERE l.ticker = ${ticker}`)
        ).rows[0]?.d;
      for (const t of TICKERS)
        expect(await snapshotsOf(t), t).toEqual({ n: SNAPSHOT_SET.length, as_of: await lastBar(t) });
      await db.db.execute(sql`
        DELETE FROM indicator_snapshots WHERE listing_id = (SELECT id FROM listings WHERE ticker = 'SPY')`);
      const { run } = await start();
      const done = await finished(run.id);
      expect(done.listings).toMatchObject({ unchanged: 3, failed: 0 });
      expect(done.provider_requests).toBe(0);
      expect(await snapshotsOf("SPY")).toEqual({ n: SNAPSHOT_SET.length, as_of: await lastBar("SPY") });
    } finally {
      await db.close();
    }
  });

  it("paces each provider in total: one object hands out slots an interval apart, whoever asks", async () => {
    const pacers = env.PROVIDER_PACER;
    const pacer = pacers.get(pacers.idFromName(`test-${crypto.randomUUID()}`));
    // Six consumers ask at once: their slots are 400 ms apart, in the order they were asked.
    const waits = (await Promise.all(Array.from({ length: 6 }, () => pacer.take(400)))).sort((a, b) => a - b);
    waits.forEach((w, i) => {
      expect(w, `slot ${i}`).toBeLessThanOrEqual(i * 400);
      expect(w, `slot ${i}`).toBeGreaterThan(i * 400 - 100);
    });
    // Once the schedule has passed, the provider is idle again: no wait.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await pacer.take(400)).toBe(0);
  });

  it("is watched with a read key and started only with a full-access key", async () => {
    const list = await call<{ running: boolean; count: number; runs: Run[] }>("/catalogue/refresh?limit=2", {
      key: READ_ONLY_KEY,
    });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ running: false, count: 2 });
    expect(list.body.runs[0]?.id).toBeGreaterThan(list.body.runs[1]?.id ?? Number.POSITIVE_INFINITY);
    const denied = await call("/catalogue/refresh", { method: "POST", key: READ_ONLY_KEY, body: {} });
    expect(denied.status).toBe(403);
    const unknown = await call("/catalogue/refresh", { method: "POST", body: { exchanges: ["NOWHERE"] } });
    expect(unknown.status).toBe(400);
  });

  it("starts a first refresh of the whole catalogue on a new instance, once", async () => {
    const db = buildDeps(env).db;
    try {
      // A new instance: no run recorded. Its listings go to a queue nobody consumes here (the test
      // must not ingest the whole catalogue beside the other files).
      await db.db.execute(sql`TRUNCATE catalogue_refresh_runs, catalogue_refresh_items RESTART IDENTITY`);
      const unconsumed = (env as unknown as { UNCONSUMED_REFRESH_QUEUE: Queue<RefreshMessage> })
        .UNCONSUMED_REFRESH_QUEUE;
      const depsWith = (first: string) => ({
        ...buildDeps({ ...env, REFRESH_FIRST_RUN: first }),
        refreshQueue: unconsumed,
      });
      expect(await startFirstRefresh({ ctx: depsWith("false") })).toBeNull();
      const first = await startFirstRefresh({ ctx: depsWith("true") });
      const active = await db.db.execute<{ n: number; venues: string[] }>(sql`
        SELECT count(*)::int AS n, array_agg(DISTINCT coalesce(exchange, 'OTHER')) AS venues FROM listings WHERE is_active`);
      expect(first?.started).toBe(true);
      expect(first?.run).toMatchObject({ trigger: "first_run", queued: active.rows[0]?.n, finishedAt: null });
      // Every venue of the catalogue, to its last closed session (listings on an unknown venue go as OTHER).
      const venues = (active.rows[0]?.venues ?? []).map((v) => (REFRESH_VENUES.includes(v) ? v : "OTHER"));
      expect(Object.keys(first?.run.sessions ?? {}).sort()).toEqual(
        expect.arrayContaining([...new Set(venues)].sort()),
      );
      await closeRunningRuns();
      expect(await startFirstRefresh({ ctx: depsWith("true") })).toBeNull();
    } finally {
      await db.close();
    }
  });

  it("drops the listings of a closed run without refreshing them", async () => {
    await resetTickers("IVV");
    const [run] = (await call<{ runs: Run[] }>("/catalogue/refresh?limit=1")).body.runs;
    expect(run?.status).toBe("finished");
    const { db } = buildDeps(env);
    const [listing] = (await db.db.execute<{ id: number }>(sql`SELECT id FROM listings WHERE ticker = 'IVV'`)).rows;
    await db.close();
    const batch = createMessageBatch(REFRESH_QUEUE_NAME, [
      {
        id: "closed-run",
        timestamp: new Date(),
        attempts: 1,
        body: { runId: run?.id, listingId: listing?.id, session: "2026-11-25" },
      },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["closed-run"]);
    expect(result.retryMessages).toEqual([]);
    expect((await storedBars("IVV")).rows).toBe(0);
  });

  it("skips every venue on its holiday when the Cron Triggers fire (Christmas Day 2026)", async () => {
    const fire = async (controller: ScheduledController, at: string) => {
      const ctx = createExecutionContext();
      await worker.scheduled(controller, { ...env, CLOCK_PINNED_AT: at }, ctx);
      await waitOnExecutionContext(ctx);
      const [run] = (await call<{ runs: Run[] }>("/catalogue/refresh?limit=1")).body.runs;
      expect(run).toMatchObject({ trigger: "cron", status: "finished", sessions: {}, listings: { queued: 0 } });
      return run?.skipped ?? {};
    };
    const europe = await fire(createScheduledController({ cron: "0 17 * * 1-5" }), "2026-12-25T17:00:00Z");
    expect(Object.keys(europe).sort()).toEqual(["AMS", "BRU", "HEL", "LSE", "MCE", "MIL", "PAR", "XETRA"]);
    expect(europe.XETRA).toBe("2026-12-25: holiday: Christmas Day");
    const us = await fire(createScheduledController({ cron: "30 21 * * 1-5" }), "2026-12-25T21:30:00Z");
    expect(Object.keys(us).sort()).toEqual(["NASDAQ", "NYSE", "NYSEARCA", "OTHER"]);
    expect(us.NYSE).toBe("2026-12-25: holiday: Christmas Day");
  });
});
