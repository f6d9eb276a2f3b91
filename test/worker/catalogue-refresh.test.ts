import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { insertRun, latestRuns, recordItem } from "../../src/db/repositories/catalogue-refresh";
import { buildDeps } from "../../src/deps";
import { REFRESH_VENUES, type RefreshMessage } from "../../src/domain/catalogue-refresh";
import { SNAPSHOT_FORMULA, SNAPSHOT_SET } from "../../src/domain/indicators/snapshots";
import { closeOf, localDate, VENUES } from "../../src/domain/venues";
import worker from "../../src/index";
import type { RefreshRunSchema } from "../../src/routes/catalogue/refresh-schema";
import { REFRESH_QUEUE_NAME } from "../../src/services/catalogue/refresh/consume-refresh";
import { startDueRefresh } from "../../src/services/catalogue/refresh/start-refresh";
import { READ_ONLY_KEY } from "../helpers/keys";
import { clearFault, fault, resetTickers, simRequests, storedBars } from "../helpers/listings";
import { call } from "../helpers/worker-http";

type Run = z.infer<typeof RefreshRunSchema>;

/** NYSE Arca's listings: three ETFs that no other test reads, so runs over that venue are this file's own. */
const VENUE = "NYSEARCA";
const TICKERS = ["IVV", "SPY", "VOO"];

async function closeRunningRuns(): Promise<void> {
  const deps = buildDeps(env);
  try {
    await deps.db.execute(sql`UPDATE catalogue_refresh_runs SET finished_at = now() WHERE finished_at IS NULL`);
  } finally {
    await deps.close();
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
    // The runs of this file refresh NYSE Arca to its last closed session: not across its close.
    const venue = VENUES.NYSEARCA;
    if (!venue) throw new Error("no NYSE Arca calendar");
    const close = closeOf(venue, localDate(venue, new Date())).getTime();
    if (Math.abs(close - Date.now()) < 120_000) await new Promise((r) => setTimeout(r, close + 121_000 - Date.now()));
    await closeRunningRuns();
    await resetTickers(...TICKERS);
  }, 300_000);

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
    const deps = buildDeps(env);
    try {
      const snapshotsOf = async (ticker: string) =>
        (
          await deps.db.execute<{ n: number; as_of: string | null }>(sql`
            SELECT count(*)::int AS n, min(s.as_of)::text AS as_of FROM indicator_snapshots s
            JOIN listings l ON l.id = s.listing_id WHERE l.ticker = ${ticker}`)
        ).rows[0];
      const lastBar = async (ticker: string) =>
        (
          await deps.db.execute<{ d: string }>(sql`
            SELECT max(p.date)::text AS d FROM prices_daily p JOIN listings l ON l.id = p.listing_id
            WHERE l.ticker = ${ticker}`)
        ).rows[0]?.d;
      for (const t of TICKERS)
        expect(await snapshotsOf(t), t).toEqual({ n: SNAPSHOT_SET.length, as_of: await lastBar(t) });
      await deps.db.execute(sql`
        DELETE FROM indicator_snapshots WHERE listing_id = (SELECT id FROM listings WHERE ticker = 'SPY')`);
      // Another listing's snapshots as the earlier arithmetic wrote them (plain running sums): recomputed.
      const ivvWma = sql`listing_id = (SELECT id FROM listings WHERE ticker = 'IVV') AND indicator = 'wma'
        AND params = '{"length":20}'`;
      const [kept] = (
        await deps.db.execute<{ value: number }>(sql`SELECT value FROM indicator_snapshots WHERE ${ivvWma}`)
      ).rows;
      await deps.db.execute(sql`UPDATE indicator_snapshots SET formula = 1, value = -1 WHERE ${ivvWma}`);
      const { run } = await start();
      const done = await finished(run.id);
      expect(done.listings).toMatchObject({ unchanged: 3, failed: 0 });
      expect(done.provider_requests).toBe(0);
      expect(await snapshotsOf("SPY")).toEqual({ n: SNAPSHOT_SET.length, as_of: await lastBar("SPY") });
      const rewritten = await deps.db.execute<{ value: number; formula: number }>(
        sql`SELECT value, formula FROM indicator_snapshots WHERE ${ivvWma}`,
      );
      expect(rewritten.rows).toEqual([{ value: kept?.value, formula: SNAPSHOT_FORMULA }]);
    } finally {
      await deps.close();
    }
  });

  it("closes a run whose last listings finish at the same moment", async () => {
    await closeRunningRuns();
    const deps = buildDeps(env);
    try {
      const ids = (
        await deps.db.execute<{ id: number }>(sql`SELECT id FROM listings WHERE is_active ORDER BY id LIMIT 24`)
      ).rows.map((r) => r.id);
      const at = new Date();
      const runId = await insertRun(
        deps.db,
        { trigger: "request", sessions: { OTHER: "2026-11-25" }, skipped: {}, at },
        ids.map((listingId) => ({ listingId, session: "2026-11-25" })),
      );
      if (runId === null) throw new Error("no run started");
      // Every listing of the run recorded at once, as parallel consumers would.
      const results = await Promise.all(
        ids.map((listingId) =>
          recordItem(deps.db, {
            runId,
            listingId,
            outcome: "unchanged",
            reason: null,
            attempts: 1,
            barsWritten: 0,
            providerRequests: 0,
            at,
          }),
        ),
      );
      expect(results.filter((r) => r.finishedNow)).toHaveLength(1);
      const [run] = await latestRuns(deps.db, 1, runId);
      expect(run?.finishedAt).not.toBeNull();
      expect(run?.counts).toMatchObject({ pending: 0, unchanged: ids.length });
      // A redelivered message changes nothing once its listing is done.
      const again = await recordItem(deps.db, {
        runId,
        listingId: ids[0] as number,
        outcome: "failed",
        reason: "late",
        attempts: 2,
        barsWritten: 5,
        providerRequests: 1,
        at,
      });
      expect(again).toMatchObject({ finishedNow: false, counts: { unchanged: ids.length, failed: 0, barsWritten: 0 } });
    } finally {
      await deps.close();
    }
  });

  it("paces each provider in total: one object hands out slots an interval apart, whoever asks", async () => {
    const pacers = env.PROVIDER_PACER;
    const pacer = pacers.get(pacers.idFromName(`test-${crypto.randomUUID()}`));
    // Six consumers ask at once: their slots are 400 ms apart, in the order they were asked.
    const waits = (await Promise.all(Array.from({ length: 6 }, () => pacer.take(400)))).sort((a, b) => a - b);
    waits.forEach((w, i) => {
      expect(w, `slot ${i}`).toBeLessThanOrEqual(i * 400);
      // Less than the interval apart only by how far apart the six calls arrived.
      expect(w, `slot ${i}`).toBeGreaterThan(i * 400 - 300);
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

  it("schedules the whole catalogue on a new instance, then each venue once a trading day, none on its holiday", async () => {
    const deps = buildDeps(env);
    try {
      // A new instance: no run recorded. The runs' listings go to a queue nobody consumes here (the
      // test must not ingest the whole catalogue beside the other files).
      await deps.db.execute(sql`TRUNCATE catalogue_refresh_runs, catalogue_refresh_items RESTART IDENTITY`);
      const unconsumed = (env as unknown as { UNCONSUMED_REFRESH_QUEUE: Queue<RefreshMessage> })
        .UNCONSUMED_REFRESH_QUEUE;
      const due = async (at: string, scheduled = "true") => {
        const r = await startDueRefresh({
          ctx: {
            ...buildDeps({ ...env, REFRESH_SCHEDULED: scheduled, CLOCK_PINNED_AT: at }),
            refreshQueue: unconsumed,
          },
        });
        await closeRunningRuns();
        return r?.run ?? null;
      };
      expect(await due("2026-12-24T19:00:00Z", "false")).toBeNull();

      // Christmas Eve, 19:00 UTC: Xetra was closed; Euronext and New York closed early and have settled.
      const first = await due("2026-12-24T19:00:00Z");
      const active = await deps.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM listings WHERE is_active`);
      expect(first).toMatchObject({ trigger: "first_run", queued: active.rows[0]?.n });
      expect(first?.sessions).toMatchObject({
        XETRA: "2026-12-23",
        PAR: "2026-12-24",
        NYSE: "2026-12-24",
        OTHER: "2026-12-23",
      });
      expect(Object.keys(first?.sessions ?? {}).sort()).toEqual([...REFRESH_VENUES].sort());

      // Christmas Day: every venue is closed but Tokyo, which traded; listings on no known venue
      // (their day closes at 21:00 UTC) have Christmas Eve's session to catch up.
      const christmas = await due("2026-12-25T17:00:00Z");
      expect(christmas?.sessions).toEqual({ TSE: "2026-12-25", OTHER: "2026-12-24" });
      expect(christmas?.skipped.XETRA).toBe("2026-12-25: holiday: Christmas Day");
      expect(Object.keys(christmas?.skipped ?? {})).toHaveLength(REFRESH_VENUES.length - 2);
      expect(await due("2026-12-25T17:05:00Z")).toBeNull();

      // Monday 28 December, 17:00 UTC: the continental venues, Dublin, Lisbon, Tokyo and Hong Kong
      // have closed (London, Toronto and Sydney keep Boxing Day), New York has not.
      const monday = await due("2026-12-28T17:00:00Z");
      expect(monday?.trigger).toBe("cron");
      const closedMonday = "AMS BRU CPH DUB HEL HKEX LIS MCE MIL OSL PAR SIX STO TSE VIE XETRA".split(" ");
      expect(monday?.sessions).toEqual(Object.fromEntries(closedMonday.map((code) => [code, "2026-12-28"])));
      expect(monday?.skipped.LSE).toBe("2026-12-28: holiday: Boxing Day (substitute day)");
      expect(monday?.skipped.TSX).toBe("2026-12-28: holiday: Boxing Day (observed)");
      expect(monday?.skipped.NYSE).toMatch(/^2026-12-28: the session has not closed yet/);
      const queued = await deps.db.execute<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM listings WHERE is_active AND exchange IN (${sql.join(
          closedMonday.map((code) => sql`${code}`),
          sql`, `,
        )})`);
      expect(monday?.queued).toBe(queued.rows[0]?.n);
      // Once covered, the same day's ticks start nothing; New York's close starts its own run.
      expect(await due("2026-12-28T17:05:00Z")).toBeNull();
      expect(Object.keys((await due("2026-12-28T21:30:00Z"))?.sessions ?? {}).sort()).toEqual([
        "NASDAQ",
        "NYSE",
        "NYSEARCA",
        "OTHER",
      ]);
    } finally {
      await deps.close();
    }
  });

  it("drops the listings of a closed run without refreshing them", async () => {
    await resetTickers("IVV");
    const [run] = (await call<{ runs: Run[] }>("/catalogue/refresh?limit=1")).body.runs;
    expect(run?.status).toBe("finished");
    const deps = buildDeps(env);
    const [listing] = (await deps.db.execute<{ id: number }>(sql`SELECT id FROM listings WHERE ticker = 'IVV'`)).rows;
    await deps.close();
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
});
