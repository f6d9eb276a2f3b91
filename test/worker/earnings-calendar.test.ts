import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { insertRun } from "../../src/db/repositories/catalogue-refresh";
import { assets, earningsCalendar, listings, screenFigures } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import { lastClosedSession, VENUES } from "../../src/domain/venues";
import worker from "../../src/index";
import type { EarningsCalendarBody } from "../../src/routes/calendar/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { REFRESH_QUEUE_NAME } from "../../src/services/catalogue/refresh/consume-refresh";
import { simCompany } from "../../tools/sandbox/fundamentals-data";
import { quoteSummaryResult } from "../../tools/sandbox/yahoo-fundamentals";
import { withDb } from "../helpers/db";
import { fault, resetTickers, simRequests } from "../helpers/listings";
import { call } from "../helpers/worker-http";

/**
 * The earnings calendar: stored by the weekly earnings refresh that rides on the daily refresh of
 * the catalogue (its queue consumer, driven here with messages of a run of this file's own), read
 * by GET /calendar/earnings. Expected values are the simulator's own answers, read here.
 */
const yahoo = inject("delayedSimUrl");
/** Adobe's fiscal year ends in November: its coming report falls in December or early January. */
const TICKER = "ADBE";

type Json = Record<string, unknown>;
const day = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);
/** A value as sent, or the `raw` of the `{raw, fmt}` box the provider sends some in. */
const raw = (v: unknown) => (typeof v === "object" && v !== null && "raw" in v ? (v as { raw: unknown }).raw : v);

/** What the simulator's calendarEvents and earningsHistory say of ADBE. */
function simulated() {
  const company = simCompany(TICKER);
  if (!company) throw new Error("ADBE is not simulated");
  const r = quoteSummaryResult(company, ["calendarEvents", "earningsHistory", "earningsTrend"], {
    formatted: false,
  }) as Record<string, Json>;
  const earnings = (r.calendarEvents as { earnings: Json }).earnings;
  const history = (r.earningsHistory as { history: Json[] }).history.map((h) => ({
    quarterEnd: day(raw(h.quarter) as number),
    actual: raw(h.epsActual) as number,
    estimate: raw(h.epsEstimate) as number,
  }));
  const trend = (r.earningsTrend as { trend: Json[] }).trend.find((t) => t.period === "0q");
  return {
    coming: (earnings.earningsDate as number[]).map(day),
    lastCall: day((earnings.earningsCallDate as number[])[0] as number),
    eps: { avg: earnings.earningsAverage, low: earnings.earningsLow, high: earnings.earningsHigh },
    revenue: earnings.revenueAverage,
    nextQuarter: String(raw(trend?.endDate)).slice(0, 10),
    history,
  };
}

async function listingOf(ticker: string): Promise<{ id: number; assetId: number; exchange: string }> {
  const [row] = await withDb((db) =>
    db
      .select({ id: listings.id, assetId: listings.assetId, exchange: listings.exchange })
      .from(listings)
      .where(eq(listings.ticker, ticker)),
  );
  if (!row?.exchange) throw new Error(`${ticker} is not in the catalogue`);
  return { ...row, exchange: row.exchange };
}

/** One delivery of the refresh queue for the listing, in a run of its own; answers what the queue was told. */
async function refreshOnce(ticker: string) {
  const listing = await listingOf(ticker);
  const session = lastClosedSession(VENUES[listing.exchange] ?? (VENUES.NASDAQ as never), new Date());
  const deps = buildDeps(env);
  const { db } = deps;
  let runId: number | null;
  try {
    await db.execute(sql`UPDATE catalogue_refresh_runs SET finished_at = now() WHERE finished_at IS NULL`);
    runId = await insertRun(
      db,
      { trigger: "request", sessions: { [listing.exchange]: session }, skipped: {}, at: new Date() },
      [{ listingId: listing.id, session }],
    );
  } finally {
    await deps.close();
  }
  const batch = createMessageBatch(REFRESH_QUEUE_NAME, [
    { id: `earnings-${runId}`, timestamp: new Date(), attempts: 1, body: { runId, listingId: listing.id, session } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

const summaryRequests = async () => (await simRequests(yahoo))[`quoteSummary ${TICKER}`] ?? 0;

describe("the earnings calendar", () => {
  const sim = simulated();
  beforeAll(() => resetTickers(TICKER));
  afterAll(async () => {
    await resetTickers(TICKER);
    await withDb((db) =>
      db.execute(sql`UPDATE catalogue_refresh_runs SET finished_at = now() WHERE finished_at IS NULL`),
    );
  });

  it("is stored by the daily refresh's weekly earnings refresh: the coming report and the quarters reported", async () => {
    const searches = async () => (await simRequests(yahoo))["search US00724F1012"] ?? 0;
    const before = { searches: await searches(), summaries: await summaryRequests() };
    const result = await refreshOnce(TICKER);
    expect(result.explicitAcks).toHaveLength(1);
    // The symbol the ingestion verified is the one the earnings are asked with: one search, one quoteSummary.
    expect(await searches()).toBe(before.searches + 1);
    expect(await summaryRequests()).toBe(before.summaries + 1);
    const { assetId } = await listingOf(TICKER);
    const rows = await withDb((db) =>
      db
        .select()
        .from(earningsCalendar)
        .where(eq(earningsCalendar.assetId, assetId))
        .orderBy(earningsCalendar.periodEnd),
    );
    const lastReported = sim.history.at(-1)?.quarterEnd;
    expect(rows.map((r) => [r.periodEnd, r.reportDate, r.reportDateTo])).toEqual([
      [lastReported, sim.lastCall, null],
      [sim.nextQuarter, sim.coming[0], sim.coming.length > 1 ? sim.coming.at(-1) : null],
    ]);
    expect(Number(rows[1]?.epsEstimate)).toBe(sim.eps.avg);
    const [asset] = await withDb((db) =>
      db.select({ at: assets.earningsCheckedAt }).from(assets).where(eq(assets.id, assetId)),
    );
    expect(asset?.at).not.toBeNull();
    // The same request read the figures a screen compares, stored in the quote's currency.
    const r = quoteSummaryResult(simCompany(TICKER) as never, ["price", "summaryDetail"], {
      formatted: false,
    }) as Record<string, Json>;
    const figures = await withDb((db) => db.select().from(screenFigures).where(eq(screenFigures.assetId, assetId)));
    expect(figures.map((f) => [f.currency, f.marketCap, f.peRatio, f.dividendYield, f.source])).toEqual([
      [
        "USD",
        raw(r.price?.marketCap),
        raw(r.summaryDetail?.trailingPE),
        raw(r.summaryDetail?.dividendYield) ?? null,
        "delayed_provider",
      ],
    ]);
    expect(figures[0]?.asOf).toBe(asset?.at?.toISOString().slice(0, 10));
  });

  it("answers the coming month's reports with their estimates, and a past window with the actuals", async () => {
    const [first] = sim.coming;
    if (!first) throw new Error("no coming report simulated");
    const month = first.slice(0, 7);
    const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
    const res = await call<EarningsCalendarBody>(`/calendar/earnings?from=${month}-01&to=${last}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=3600");
    const mine = res.body.earnings.find((e) => e.ticker === TICKER);
    expect(mine).toMatchObject({
      isin: "US00724F1012",
      period_end: sim.nextQuarter,
      report_date: first,
      // More than three weeks off on the simulator's day: a range, not a day yet.
      report_date_to: sim.coming[1],
      date_confirmed: false,
      eps_estimate: sim.eps.avg,
      eps_low: sim.eps.low,
      eps_high: sim.eps.high,
      revenue_estimate: sim.revenue,
      eps_actual: null,
    });
    expect(res.body.earnings.every((e) => (e.report_date_to ?? e.report_date ?? e.period_end) >= `${month}-01`)).toBe(
      true,
    );
    // A window inside the expected range finds the report too.
    const inside = await call<EarningsCalendarBody>(`/calendar/earnings?from=${sim.coming[1]}&to=${sim.coming[1]}`);
    expect(inside.body.earnings.map((e) => e.ticker)).toContain(TICKER);

    const past = await call<EarningsCalendarBody>(
      `/calendar/earnings?tickers=${TICKER.toLowerCase()},NOPE&from=2025-11-01&to=${sim.lastCall}`,
    );
    expect(past.status).toBe(200);
    expect(past.body.unknown_tickers).toEqual(["NOPE"]);
    // Every quarter of the provider's history, with its actual; the last held one dated by its call.
    expect(past.body.earnings.map((e) => [e.period_end, e.report_date, e.eps_actual, e.eps_estimate])).toEqual(
      sim.history.map((h, i) => [
        h.quarterEnd,
        i === sim.history.length - 1 ? sim.lastCall : null,
        h.actual,
        h.estimate,
      ]),
    );
  });

  it("asks again only after a week, and a provider failure costs the calendar, not the listing's refresh", async () => {
    const before = await summaryRequests();
    await refreshOnce(TICKER);
    expect(await summaryRequests()).toBe(before);
    // Due again (as a week later); the provider fails its quoteSummary.
    const { assetId } = await listingOf(TICKER);
    await withDb((db) => db.update(assets).set({ earningsCheckedAt: null }).where(eq(assets.id, assetId)));
    await fault(yahoo, TICKER, "500", 3);
    const result = await refreshOnce(TICKER);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    const [asset] = await withDb((db) =>
      db.select({ at: assets.earningsCheckedAt }).from(assets).where(eq(assets.id, assetId)),
    );
    expect(asset?.at).toBeNull();
  });

  it("refuses what it cannot answer", async () => {
    for (const [query, wanted] of [
      ["from=2026-12-31&to=2026-12-01", "after to"],
      ["from=2026-01-01&to=2027-06-01", "366 at most"],
      [`tickers=${Array.from({ length: 51 }, (_, i) => `T${i}`).join(",")}`, "50 at most"],
      ["from=2026-13-01", "from"],
      // A NUL byte the fuzzer sent once reached the database (a 500): refused at the door.
      ["tickers=%00", "tickers are letters, digits"],
      ["tickers=AAPL,MS%00FT", "tickers are letters, digits"],
    ] as const) {
      const res = await call<ErrorBody>(`/calendar/earnings?${query}`);
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body), query).toContain(wanted);
    }
  });
});
