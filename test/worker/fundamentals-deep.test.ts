import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { assets, financialStatements, fundamentalSnapshots, listings, validationResults } from "../../src/db/schema";
import { cacheKeys } from "../../src/platform/cache";
import type { DeepFundamentalsAnswer } from "../../src/routes/fundamentals/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { withDb } from "../helpers/db";
import { createListing, uniqueTicker } from "../helpers/factories";
import { fault, forgetCached, resetTickers, simRequests } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");

async function assetIdOf(ticker: string): Promise<number> {
  return withDb(async (db) => {
    const [row] = await db.select({ id: listings.assetId }).from(listings).where(eq(listings.ticker, ticker));
    if (!row) throw new Error(`no listing ${ticker}`);
    return row.id;
  });
}

async function countRows(assetId: number) {
  return withDb(async (db) => {
    const [snapshots] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(fundamentalSnapshots)
      .where(eq(fundamentalSnapshots.assetId, assetId));
    const [statements] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(financialStatements)
      .where(eq(financialStatements.assetId, assetId));
    return { snapshots: snapshots?.n ?? 0, statements: statements?.n ?? 0 };
  });
}

describe("GET /fundamental/deep: fetched with the verified symbol, stored, served from the database when the provider fails", () => {
  beforeAll(() => resetTickers("KER.PA"));

  it("fetches five fiscal years of annual statements with period_end, and stores them", async () => {
    const res = await call<DeepFundamentalsAnswer>("/fundamental/deep?ticker=KER.PA&sections=statements");
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ source: "delayed_provider", cache_hit: false, symbol: "KER.PA" });
    expect(res.body.meta.note).toBeUndefined();
    expect(res.body.asset_profile).toEqual({
      isin: "FR0000121485",
      ticker: "KER.PA",
      name: "Kering SA",
      exchange: "PAR",
      currency: "EUR",
    });
    // Only the sections asked for.
    expect(res.body.highlights).toBeUndefined();
    expect(res.body.earnings_history).toBeUndefined();
    const statements = res.body.statements;
    if (!statements) throw new Error("no statements");
    const years = ["2025-12-31", "2024-12-31", "2023-12-31", "2022-12-31", "2021-12-31"];
    for (const kind of ["income", "balance", "cashflow"] as const) {
      expect(statements[kind].annual.map((r) => r.period_end)).toEqual(years);
      expect(statements[kind].quarterly).toHaveLength(6);
    }
    // Statements that add up, as the provider's do.
    for (const row of statements.income.annual) {
      const n = (k: string) => row[k] as number;
      expect(n("gross_profit")).toBe(n("total_revenue") - n("cost_of_revenue"));
      expect(n("net_income")).toBe(n("pretax_income") - n("tax_provision"));
      expect(n("diluted_eps")).toBeCloseTo(n("net_income") / n("diluted_average_shares"), 2);
      expect(row.currency).toBe("EUR");
    }
    for (const row of statements.cashflow.annual) {
      expect(row.free_cash_flow).toBe((row.operating_cash_flow as number) + (row.capital_expenditure as number));
    }
    const stored = await countRows(await assetIdOf("KER.PA"));
    // Three statements, five years and six quarters each; one snapshot for the day.
    expect(stored).toEqual({ snapshots: 1, statements: 3 * (5 + 6) });
  });

  it("answers a repeat from the cache, and a refresh the same day updates the rows instead of adding any", async () => {
    const cached = await call<DeepFundamentalsAnswer>("/fundamental/deep?ticker=KER.PA&sections=statements");
    expect(cached.body.meta.cache_hit).toBe(true);
    const refreshed = await call<DeepFundamentalsAnswer>("/fundamental/deep?ticker=KER.PA&refresh=true");
    expect(refreshed.body.meta).toMatchObject({ source: "delayed_provider", cache_hit: false });
    expect(await countRows(await assetIdOf("KER.PA"))).toEqual({ snapshots: 1, statements: 33 });
    // Highlights: ratios are ratios.
    const h = refreshed.body.highlights ?? {};
    expect(h.dividend_yield).toBeGreaterThan(0);
    expect(h.dividend_yield).toBeLessThan(0.1);
    expect(h.profit_margin).toBeLessThan(1);
    expect(h.pe_ratio).toBeCloseTo((h.price as number) / (h.eps_ttm as number), 1);
    expect(h.debt_to_equity).toBeLessThan(5); // sent in percent by the provider, a ratio here
    expect(refreshed.body.analyst_ratings?.rating).toBeGreaterThanOrEqual(1);
    expect(refreshed.body.earnings_history).toHaveLength(4);
    expect(refreshed.body.earnings_trend?.map((t) => t.period)).toEqual(["0q", "+1q", "0y", "+1y"]);
  });

  it("after a restart with the provider failing, answers the same statements from the database, saying why", async () => {
    const before = await call<DeepFundamentalsAnswer>("/fundamental/deep?ticker=KER.PA&sections=statements");
    // A restart: the cached answer is gone (the in-isolate cache with it); the provider now fails.
    await forgetCached(cacheKeys.fundamentalsDeep("*"));
    await fault(yahoo, "KER.PA", "500", 20);
    const res = await call<DeepFundamentalsAnswer>("/fundamental/deep?ticker=KER.PA&sections=statements");
    expect(res.status).toBe(200);
    expect(res.body.meta.source).toBe("database");
    expect(res.body.meta.note).toBe(
      "nothing fetched: the delayed provider failed for KER.PA (HTTP 500); the stored figures are shown",
    );
    expect(res.body.statements).toEqual(before.body.statements);
    // A database answer is not cached: the next call asks the provider again.
    const again = await call<DeepFundamentalsAnswer>("/fundamental/deep?ticker=KER.PA&sections=statements");
    expect(again.body.meta.cache_hit).toBe(false);
  });

  it("answers by ISIN with the instrument's preferred listing, and 404 for an ISIN the catalogue lacks", async () => {
    const res = await call<DeepFundamentalsAnswer>("/fundamental/deep?isin=FR0000121485&sections=highlights");
    expect(res.status).toBe(200);
    expect(res.body.asset_profile.ticker).toBe("KER.PA");
    const missing = await call<ErrorBody>("/fundamental/deep?isin=US0000000002");
    expect(missing.status).toBe(404);
    expect(missing.body.reason).toBe("US0000000002 is not an instrument of the catalogue");
  });

  it("refuses a request without ticker or isin, and an unknown section, with 400", async () => {
    const none = await call<ErrorBody>("/fundamental/deep");
    expect(none.status).toBe(400);
    expect(none.body.message).toBe("ticker or isin is required");
    const bad = await call<ErrorBody>("/fundamental/deep?ticker=KER.PA&sections=highlights,gossip");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("unknown section gossip");
  });
});

describe("GET /fundamental/deep: the validation layer", () => {
  beforeAll(() => resetTickers("RMS.PA"));

  it("refuses an out-of-range P/E, leaves it out of the stored highlights, says so, and stores the verdict", async () => {
    await fault(yahoo, "RMS.PA", "absurd_pe", 1);
    const res = await call<DeepFundamentalsAnswer>("/fundamental/deep?ticker=RMS.PA&sections=highlights&refresh=true");
    expect(res.status).toBe(200);
    expect(res.body.meta.source).toBe("delayed_provider");
    expect(res.body.highlights?.pe_ratio).toBeUndefined();
    expect(res.body.highlights?.eps_ttm).toEqual(expect.any(Number));
    expect(res.body.meta.rejected).toEqual([
      { field: "pe_ratio", value: 48213.7, status: "out_of_range", reason: "48213.7 is outside [0, 1500]" },
    ]);
    const verdicts = await withDb((db) =>
      db
        .select({ status: validationResults.status, value: validationResults.value })
        .from(validationResults)
        .where(and(eq(validationResults.ticker, "RMS.PA"), eq(validationResults.field, "pe_ratio"))),
    );
    expect(verdicts).toEqual([{ status: "out_of_range", value: "48213.7" }]);
  });
});

describe("GET /fundamental/deep: a listing without a verified symbol, as a new user meets it", () => {
  const ticker = uniqueTicker(".PA");
  let isin = "";
  beforeAll(async () => {
    isin = (await withDb((db) => createListing(db, { ticker, exchange: "PAR", currency: "EUR" }))).asset.isin;
  });
  afterAll(() => withDb((db) => db.delete(assets).where(eq(assets.isin, isin))));

  it("answers from the database with a note that says why, never a 500", async () => {
    const before = await simRequests(yahoo);
    const res = await call<DeepFundamentalsAnswer>(`/fundamental/deep?ticker=${ticker}`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({
      fetched_at: null,
      fetch_date: null,
      source: "database",
      cache_hit: false,
      symbol: null,
      note: `nothing fetched: no verified delayed-provider symbol (the delayed provider has no symbol of ${isin} on PAR quoted in EUR); the stored figures are shown`,
    });
    expect(res.body.highlights).toEqual({});
    expect(res.body.statements?.income).toEqual({ annual: [], quarterly: [] });
    // The provider was searched, never asked for fundamentals under the bare ticker.
    const after = await simRequests(yahoo);
    expect(after[`quoteSummary ${ticker}`]).toBe(before[`quoteSummary ${ticker}`]);
  });
});

describe("the delayed provider's session (cookie and crumb)", () => {
  beforeAll(() => resetTickers("BNP.PA"));

  it("is required: the simulator refuses quoteSummary without a crumb, as the provider does", async () => {
    const res = await fetch(`${yahoo}/v10/finance/quoteSummary/BNP.PA?modules=price`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      finance: { result: null, error: { code: "Unauthorized", description: "Invalid Crumb" } },
    });
  });

  it("is opened again once when the provider refuses the crumb, and the enrichment goes on", async () => {
    await call<DeepFundamentalsAnswer>("/fundamental/deep?ticker=BNP.PA&sections=highlights");
    await fault(yahoo, "BNP.PA", "crumb", 1);
    const res = await call<DeepFundamentalsAnswer>("/fundamental/deep?ticker=BNP.PA&sections=highlights&refresh=true");
    expect(res.body.meta.source).toBe("delayed_provider");
  });

  it("is given up after a second refusal: the stored figures, and a note saying the session was refused", async () => {
    await fault(yahoo, "BNP.PA", "crumb", 2);
    const res = await call<DeepFundamentalsAnswer>("/fundamental/deep?ticker=BNP.PA&sections=highlights&refresh=true");
    expect(res.body.meta.source).toBe("database");
    expect(res.body.meta.note).toBe(
      "nothing fetched: the delayed provider failed for BNP.PA (session refused (Invalid Crumb)); the stored figures are shown",
    );
  });
});
