import { and, eq, gte, lt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  adjustmentChecks,
  alerts,
  dividends,
  listings,
  pricesDaily,
  providerChecks,
  splits,
} from "../../src/db/schema";
import { FULL_PRECISION_TOLERANCE } from "../../src/domain/corporate-actions";
import { tenYearsBefore } from "../../src/domain/periods";
import { cacheKeys } from "../../src/platform/cache";
import type { DividendsBody, SplitsBody } from "../../src/routes/corporate-actions/schema";
import type { CanaryHistoryBody } from "../../src/routes/health/monitoring-schema";
import type { ValidationStatsBody } from "../../src/routes/health/stats";
import type { ErrorBody } from "../../src/routes/openapi";
import { dailyHistory } from "../../tools/sandbox/market-data";
import { withDb } from "../helpers/db";
import { forgetCached, resetTickers, simRequests } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");

/** Friday 27 November 2026: the window ends on Thursday, Thanksgiving (no session): its last bar is Wednesday's. */
const AT = "2026-11-27T15:00:00Z";
const YESTERDAY = "2026-11-26";
/** The last session before AT: a stored bar deleted there is missing, and fetched again by the next ingestion. */
const LAST_SESSION = "2026-11-25";
const FROM = tenYearsBefore("2026-11-27");

const simAapl = dailyHistory("AAPL", YESTERDAY);
const expectedDividends = simAapl.dividends.filter((d) => d.date >= FROM && d.date <= YESTERDAY);

async function aaplId(): Promise<number> {
  const [row] = await withDb((db) => db.select({ id: listings.id }).from(listings).where(eq(listings.ticker, "AAPL")));
  if (!row) throw new Error("AAPL is not in the catalogue");
  return row.id;
}

/** Multiplies the stored adjusted closes of AAPL in [from, to) by `factor` (a stored series gone stale or wrong). */
async function skewAdjusted(from: string, to: string, factor: number): Promise<void> {
  const id = await aaplId();
  await withDb((db) =>
    db
      .update(pricesDaily)
      .set({ adjClose: sql`round(${pricesDaily.adjClose} * ${factor}, 8)` })
      .where(and(eq(pricesDaily.listingId, id), gte(pricesDaily.date, from), lt(pricesDaily.date, to))),
  );
}

async function storedAdjClose(date: string): Promise<number | null> {
  const id = await aaplId();
  const [row] = await withDb((db) =>
    db
      .select({ adj: pricesDaily.adjClose })
      .from(pricesDaily)
      .where(and(eq(pricesDaily.listingId, id), eq(pricesDaily.date, date))),
  );
  return row ? Number(row.adj) : null;
}

/** What the canary run above left: its checks, its alert and its summary (other files' canary tests start clean). */
async function forgetCanaryRun(): Promise<void> {
  await withDb(async (db) => {
    await db.delete(providerChecks).where(eq(providerChecks.providerName, "delayed_provider"));
    await db.delete(alerts).where(and(eq(alerts.providerName, "delayed_provider"), eq(alerts.type, "canary_failed")));
  });
  await forgetCached(cacheKeys.healthSummary());
}

describe("GET /dividends/{ticker} and GET /splits/{ticker}", () => {
  beforeAll(() => resetTickers("AAPL"));
  afterAll(() => resetTickers("AAPL"));

  it("stores the provider's dividends with the prices, and finds them consistent with the adjusted closes", async () => {
    const res = await call<DividendsBody>("/dividends/AAPL", { at: AT });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(res.body.listing).toEqual({ ticker: "AAPL", exchange: "NASDAQ", currency: "USD", isin: "US0378331005" });
    // Ten years of quarterly dividends, each as the provider's chart events gave it.
    expect(expectedDividends.length).toBe(40);
    expect(res.body.dividends).toEqual(
      expectedDividends.map((d) => ({ ex_date: d.date, amount: d.amount, source: "delayed_provider" })),
    );
    expect(res.body.count).toBe(40);
    const bars = simAapl.bars.filter((b) => !b.missing && b.date >= FROM).length;
    expect(res.body.adjustment_check).toMatchObject({
      consistent: true,
      tolerance: FULL_PRECISION_TOLERANCE,
      precision: "full",
      bars,
      dividends: 40,
      splits: 1,
      mismatches: 0,
      first_mismatches: [],
    });
    expect(res.body.warning).toBeUndefined();
  });

  it("gives the splits, a window of either, and CSV", async () => {
    const splits = await call<SplitsBody>("/splits/AAPL", { at: AT });
    expect(splits.status).toBe(200);
    // AAPL's 4:1 of 2020 is within the ten years: stored with the prices by the first request.
    expect(splits.body.splits).toEqual([
      { date: "2020-08-31", numerator: 4, denominator: 1, ratio: "4:1", source: "delayed_provider" },
    ]);

    const year = await call<DividendsBody>("/dividends/AAPL?from=2025-01-01&to=2025-12-31", { at: AT });
    expect(year.body.dividends.map((d) => d.ex_date)).toEqual(
      expectedDividends.filter((d) => d.date.startsWith("2025")).map((d) => d.date),
    );
    expect(year.body.dividends).toHaveLength(4);
    expect([year.body.from, year.body.to]).toEqual(["2025-01-01", "2025-12-31"]);

    const csv = await call<string>("/dividends/AAPL?from=2026-01-01&fmt=csv", { at: AT });
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const wanted = expectedDividends.filter((d) => d.date >= "2026-01-01");
    expect(csv.body).toBe(`Date,Dividends\n${wanted.map((d) => `${d.date},${d.amount}\n`).join("")}`);
    const splitCsv = await call<string>("/splits/AAPL?fmt=csv", { at: AT });
    expect(splitCsv.body).toBe("Date,Stock Splits\n2020-08-31,4:1\n");
  });

  it("gives the fundamentals document's SplitsDividends from the stored events, with their source", async () => {
    const res = await call<{
      SplitsDividends: Record<string, unknown>;
      Sources: Record<string, Record<string, string>>;
    }>("/fundamental?ticker=AAPL", { at: AT });
    expect(res.status).toBe(200);
    const years = [...new Set(expectedDividends.map((d) => d.date.slice(0, 4)))].sort();
    expect(res.body.SplitsDividends.NumberDividendsByYear).toEqual(
      Object.fromEntries(
        years.map((y, i) => [
          String(i),
          { Year: Number(y), Count: expectedDividends.filter((d) => d.date.startsWith(y)).length },
        ]),
      ),
    );
    // 2016 from 27 November on: its one dividend (15 November) is before the ten years.
    expect(years[0]).toBe("2017");
    expect(res.body.SplitsDividends).toMatchObject({ LastSplitFactor: "4:1", LastSplitDate: "2020-08-31" });
    expect(res.body.Sources.SplitsDividends).toMatchObject({
      NumberDividendsByYear: "delayed_provider",
      LastSplitFactor: "delayed_provider",
      LastSplitDate: "delayed_provider",
    });
  });

  it("stores again the adjusted closes that predate a new dividend", async () => {
    await resetTickers("AAPL");
    // Stored on 10 November: the 16 November dividend is not known yet. The simulator adjusts as of
    // today, so the stored series is made as the provider adjusted it then (before the dividend).
    expect((await call<DividendsBody>("/dividends/AAPL", { at: "2026-11-10T15:00:00Z" })).status).toBe(200);
    const nov = expectedDividends.find((d) => d.date.startsWith("2026-11"));
    expect(nov?.date).toBe("2026-11-16");
    const fresh = await storedAdjClose("2026-11-09");
    await skewAdjusted(FROM, "2026-11-16", 1.003);
    expect(await storedAdjClose("2026-11-09")).not.toBe(fresh);

    const res = await call<DividendsBody>("/dividends/AAPL", { at: AT });
    expect(res.body.dividends.at(-1)).toEqual({
      ex_date: "2026-11-16",
      amount: nov?.amount,
      source: "delayed_provider",
    });
    // The new dividend made every earlier stored bar be asked again: they are the provider's again.
    expect(await storedAdjClose("2026-11-09")).toBe(fresh);
    // Stored since ten years before 10 November: one dividend of November 2016 more than above.
    const since = simAapl.dividends.filter((d) => d.date >= tenYearsBefore("2026-11-10") && d.date <= YESTERDAY);
    expect(since).toHaveLength(41);
    expect(res.body.adjustment_check).toMatchObject({ consistent: true, mismatches: 0, dividends: 41 });
  });

  it("reports a listing whose adjusted closes disagree with its dividends in /health/stats and the canary", async () => {
    // A stored series wrong on one day, then an ingestion (the last session again) that runs the check.
    await skewAdjusted("2024-03-05", "2024-03-06", 1.01);
    const id = await aaplId();
    await withDb((db) =>
      db.delete(pricesDaily).where(and(eq(pricesDaily.listingId, id), eq(pricesDaily.date, LAST_SESSION))),
    );
    const res = await call<DividendsBody>("/dividends/AAPL", { at: AT });
    expect(res.body.adjustment_check).toMatchObject({ consistent: false, mismatches: 2 });
    expect(res.body.adjustment_check?.first_mismatches.map((m) => [m.date, m.kind])).toEqual([
      // No event on either session: the steps are unexplained.
      ["2024-03-05", "unexplained"],
      ["2024-03-06", "unexplained"],
    ]);
    const [first, second] = res.body.adjustment_check?.first_mismatches ?? [];
    expect(first?.expected).toBe(1);
    expect(first?.observed).toBeCloseTo(1 / 1.01, 6);
    expect(second?.observed).toBeCloseTo(1.01, 6);

    const stats = await call<ValidationStatsBody>("/health/stats", { at: AT });
    const adjustments = stats.body.price_adjustments;
    expect(adjustments.listings_disagreeing).toBeGreaterThanOrEqual(1);
    expect(adjustments.disagreeing.find((l) => l.ticker === "AAPL")).toMatchObject({
      exchange: "NASDAQ",
      isin: "US0378331005",
      mismatches: 2,
      first: { date: "2024-03-05", kind: "unexplained" },
    });

    // The canary's run of the delayed provider fails a check for it (and opens its alert).
    expect(
      (
        await call("/health/canary/run?provider_name=delayed_provider", {
          method: "POST",
          at: AT,
          settleBackground: true,
        })
      ).status,
    ).toBe(200);
    const history = await call<CanaryHistoryBody>(
      "/health/canary/history?provider_name=delayed_provider&ticker=AAPL&limit=5",
      { at: AT },
    );
    expect(history.body.checks.find((c) => c.field === "adjusted_close")).toMatchObject({
      passed: false,
      error:
        "adjusted closes disagree with the stored dividends and splits at 2 session(s), first 2024-03-05 (unexplained)",
    });
    await forgetCanaryRun();

    // The next ingestion that fetches asks the stored span again (once a day) and heals it.
    await forgetCached(cacheKeys.readjustTried(id));
    const skewed = await storedAdjClose("2024-03-05");
    await withDb((db) =>
      db.delete(pricesDaily).where(and(eq(pricesDaily.listingId, id), eq(pricesDaily.date, LAST_SESSION))),
    );
    const healed = await call<DividendsBody>("/dividends/AAPL", { at: AT });
    expect(healed.body.adjustment_check).toMatchObject({ consistent: true, mismatches: 0 });
    expect(await storedAdjClose("2024-03-05")).toBeCloseTo((skewed ?? 0) / 1.01, 6);

    // The same disagreement again: asked about once already, it is not asked about again for a week.
    await skewAdjusted("2024-03-05", "2024-03-06", 1.01);
    for (let i = 0; i < 2; i++) {
      await withDb((db) =>
        db.delete(pricesDaily).where(and(eq(pricesDaily.listingId, id), eq(pricesDaily.date, LAST_SESSION))),
      );
      const again = await call<DividendsBody>("/dividends/AAPL", { at: AT });
      expect(again.body.adjustment_check).toMatchObject({ consistent: false, mismatches: 2 });
    }
    expect(await storedAdjClose("2024-03-05")).toBeCloseTo(skewed ?? 0, 6);
  });

  it("reads the events of a listing whose prices were stored before events were, with its whole stored span", async () => {
    const id = await aaplId();
    // As an earlier version left it: prices stored, no events and no check.
    await withDb(async (db) => {
      for (const table of [dividends, splits, adjustmentChecks]) await db.delete(table).where(eq(table.listingId, id));
    });
    const before = await call<DividendsBody>("/dividends/AAPL?from=2026-01-01", { at: AT });
    expect(before.body.dividends).toEqual([]);
    expect(before.body.adjustment_check).toBeNull();
    expect(before.body.warning).toMatch(/have not been read yet/);

    // The next ingestion that fetches anything (a new session) asks the whole span, events included.
    await withDb((db) =>
      db.delete(pricesDaily).where(and(eq(pricesDaily.listingId, id), eq(pricesDaily.date, LAST_SESSION))),
    );
    const calls = (await simRequests(yahoo))["chart AAPL"] ?? 0;
    const after = await call<DividendsBody>("/dividends/AAPL", { at: AT });
    // Stored since the ingestion of 10 November above: from ten years before that day.
    const stored = simAapl.dividends.filter((d) => d.date >= tenYearsBefore("2026-11-10") && d.date <= YESTERDAY);
    expect(after.body.dividends.map((d) => d.ex_date)).toEqual(stored.map((d) => d.date));
    expect(after.body.adjustment_check).toMatchObject({ consistent: true, dividends: 41, splits: 1 });
    expect(after.body.warning).toBeUndefined();
    // One call: the missing session and the stored span together.
    expect((await simRequests(yahoo))["chart AAPL"]).toBe(calls + 1);
  });

  it("forgets a dividend the provider no longer sends once the disagreement makes it ask the whole span", async () => {
    const id = await aaplId();
    const dropLastSession = () =>
      withDb((db) =>
        db.delete(pricesDaily).where(and(eq(pricesDaily.listingId, id), eq(pricesDaily.date, LAST_SESSION))),
      );
    // A dividend stored once and since withdrawn by the provider: the adjusted closes show no step for it.
    await withDb((db) =>
      db.insert(dividends).values({ listingId: id, exDate: "2025-03-03", amount: "1.5", source: "delayed_provider" }),
    );
    await dropLastSession();
    const found = await call<DividendsBody>("/dividends/AAPL?from=2025-03-01&to=2025-03-31", { at: AT });
    expect(found.body.dividends).toEqual([{ ex_date: "2025-03-03", amount: 1.5, source: "delayed_provider" }]);
    expect(found.body.adjustment_check).toMatchObject({ consistent: false, mismatches: 1 });
    expect(found.body.adjustment_check?.first_mismatches[0]).toMatchObject({ date: "2025-03-03", kind: "dividend" });

    // The next fetching ingestion asks the whole span: its answer has no such dividend.
    await dropLastSession();
    const healed = await call<DividendsBody>("/dividends/AAPL?from=2025-03-01&to=2025-03-31", { at: AT });
    expect(healed.body.dividends).toEqual([]);
    expect(healed.body.adjustment_check).toMatchObject({ consistent: true, mismatches: 0 });
  });

  it("refuses what it cannot answer with a 4xx", async () => {
    const unknown = await call<ErrorBody>("/dividends/ZZNOLIST", { at: AT });
    expect(unknown.status).toBe(404);
    const reversed = await call<ErrorBody>("/dividends/AAPL?from=2025-02-01&to=2025-01-01", { at: AT });
    expect(reversed.status).toBe(400);
    expect(reversed.body.message).toBe("from (2025-02-01) is after to (2025-01-01)");
    expect((await call<ErrorBody>("/splits/AAPL?from=2025-13-01", { at: AT })).status).toBe(400);
    expect((await call<ErrorBody>("/splits/AAPL?fmt=xml", { at: AT })).status).toBe(400);
  });
});
