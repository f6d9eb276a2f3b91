import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { assets, validationResults } from "../../src/db/schema";
import type {
  DeepFundamentalsAnswer,
  LegacyFinancialsAnswer,
  RawFundamentalsAnswer,
  RenderedFundamentalsAnswer,
} from "../../src/routes/fundamentals/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import goldenAirLiquide from "../fixtures/golden/fundamental-AI.PA.json";
import goldenChevron from "../fixtures/golden/fundamental-CVX.json";
import { withDb } from "../helpers/db";
import { createListing, uniqueTicker } from "../helpers/factories";
import { comparableDocument } from "../helpers/golden";
import { fault, resetTickers, simRequests } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");
const pages = inject("scrapedSimUrl");
/** The golden documents were rendered on this day (the simulators' figures do not depend on it). */
const AT = "2026-11-26T15:00:00Z";

type Doc = RenderedFundamentalsAnswer;
type Section = Record<string, unknown>;

const SNAPSHOT_SECTIONS = ["Highlights", "Valuation", "SharesStats", "Technicals", "SplitsDividends", "AnalystRatings"];
const EVERY_SECTION = [
  "General",
  ...SNAPSHOT_SECTIONS,
  "Holders",
  "InsiderTransactions",
  "ESGScores",
  "Earnings",
  "Financials",
  "Providers",
  "Sources",
  "Currencies",
];

/** Every figure the document shows in a flat section has a Sources label, and every label names a figure shown. */
function expectEveryFigureSourced(doc: Doc): void {
  const sources = doc.Sources;
  for (const name of ["General", ...SNAPSHOT_SECTIONS]) {
    const section = (doc as Record<string, Section | undefined>)[name] ?? {};
    const shown = Object.entries(section)
      .filter(
        ([k, v]) =>
          v !== null && !(typeof v === "object" && Object.keys(v as object).length === 0) && k !== "UpdatedAt",
      )
      .map(([k]) => k)
      .sort();
    expect(Object.keys(sources[name] ?? {}).sort(), name).toEqual(shown);
  }
}

const n = (s: unknown) => Number(s);

/** The identities a reader can check in a document (statements that add up, the same figure in two places). */
function expectConsistent(doc: Doc): void {
  const h = doc.Highlights as Section;
  const v = doc.Valuation as Section;
  expect(h.MarketCapitalizationMln).toBe(n(h.MarketCapitalization) / 1e6);
  expect(v.TrailingPE).toBe(h.PERatio);
  expect(h.DilutedEpsTTM).toBe(h.EarningsShare);
  for (const ratio of [
    "DividendYield",
    "ProfitMargin",
    "OperatingMarginTTM",
    "ReturnOnAssetsTTM",
    "ReturnOnEquityTTM",
  ]) {
    expect(n(h[ratio]), ratio).toBeGreaterThan(0);
    expect(n(h[ratio]), ratio).toBeLessThan(1);
  }
  expect((doc.SplitsDividends as Section).ForwardAnnualDividendYield).toBe(h.DividendYield);
  const fin = doc.Financials as Record<string, { yearly: Record<string, Record<string, string>> }>;
  const years = Object.keys(fin.Income_Statement?.yearly ?? {});
  expect(years).toHaveLength(5);
  for (const year of years) {
    const inc = fin.Income_Statement?.yearly[year] ?? {};
    const cf = fin.Cash_Flow?.yearly[year] ?? {};
    const bs = fin.Balance_Sheet?.yearly[year] ?? {};
    expect(n(inc.totalRevenue) - n(inc.costOfRevenue)).toBe(n(inc.grossProfit));
    expect(n(inc.incomeBeforeTax) - n(inc.incomeTaxExpense)).toBe(n(inc.netIncome));
    expect(n(cf.totalCashFromOperatingActivities) - n(cf.capitalExpenditures)).toBe(n(cf.freeCashFlow));
    expect(n(bs.totalLiab) + n(bs.totalStockholderEquity)).toBe(n(bs.totalAssets));
    expect(n(bs.shortLongTermDebtTotal) - n(bs.cashAndEquivalents)).toBe(n(bs.netDebt));
    // Statement items are two-decimal strings, as EODHD writes them.
    expect(inc.totalRevenue).toMatch(/^-?\d+\.\d\d$/);
  }
}

describe("GET /fundamental: the golden documents", () => {
  beforeAll(() => resetTickers("CVX", "AI.PA"));

  it.each([
    ["a US share by ticker", "ticker=CVX", goldenChevron],
    ["a Paris share by ISIN", "isin=FR0000120073", goldenAirLiquide],
  ])("renders %s field by field as the golden document, every figure with its source", async (_what, query, golden) => {
    const res = await call<Doc>(`/fundamental?${query}&nocache=true`, { at: AT });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(EVERY_SECTION);
    expect(res.body.ETF_Data).toBeUndefined();
    expect(comparableDocument(res.body)).toEqual(golden);
    expectEveryFigureSourced(res.body);
    expectConsistent(res.body);
  });

  it("keeps EODHD's percents as percents and its ratios as ratios", async () => {
    const doc = await call<Doc>("/fundamental?isin=FR0000120073", { at: AT });
    const deep = await call<DeepFundamentalsAnswer>("/fundamental/deep?isin=FR0000120073&sections=highlights");
    const h = deep.body.highlights ?? {};
    const shares = doc.body.SharesStats as Section;
    // The stored ratio 0.0171 is EODHD's percent 1.71; short interest and yields stay ratios.
    expect(shares.PercentInsiders).toBeCloseTo(n(h.percent_insiders) * 100, 10);
    expect(shares.PercentInsiders).toBe(1.71);
    expect(shares.ShortPercentFloat).toBe(h.short_percent_float);
    expect((doc.body.Highlights as Section).DividendYield).toBe(h.dividend_yield);
    expect(n(h.dividend_yield)).toBeLessThan(0.1);
  });
});

describe("GET /fundamental: an ETF", () => {
  it("has ETF_Data and no statements", async () => {
    const res = await call<Doc>("/fundamental?ticker=CSPX.L&nocache=true");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["General", "Technicals", "ETF_Data", "Providers", "Sources", "Currencies"]);
    const etf = res.body.ETF_Data as Section;
    expect(etf).toMatchObject({ ISIN: "IE00B5BMR087", NetExpenseRatio: "0.00070", Holdings_Count: 10 });
    const sectors = Object.values(etf.Sector_Weights as Record<string, { "Equity_%": string }>);
    expect(sectors.reduce((s, x) => s + Number(x["Equity_%"]), 0)).toBeCloseTo(100, 0);
    expect(res.body.Providers.scraped_onvista).toEqual({
      status: "not_applicable",
      reason: "scraped_onvista publishes figures of European shares only",
    });
    expectEveryFigureSourced(res.body);
  });
});

describe("GET /fundamental: scraped pages", () => {
  // SAP.DE is read, never reset here (the EOD tests ingest it); the others are this file's own.
  beforeAll(() => resetTickers("ADYEN.AS", "SU.PA"));

  it("shows a page about another ISIN as an error of that provider, and its figures nowhere", async () => {
    const res = await call<Doc>("/fundamental?ticker=SAP.DE&nocache=true");
    expect(res.body.Providers.scraped_onvista).toEqual({
      status: "error",
      url: `${pages}/aktien/kennzahlen/DE0007164600`,
      isin: "DE0007236101",
      error: "the page is about DE0007236101, not DE0007164600: its figures are not used",
    });
    expect(JSON.stringify(res.body.Sources)).not.toContain("scraped_onvista");
  });

  it("takes trailing P/E, EPS and dividend yield from a page when the provider and the database have none, and nothing else", async () => {
    await fault(yahoo, "SU.PA", "500", 100);
    const res = await call<Doc>("/fundamental?ticker=SU.PA&nocache=true");
    expect(res.status).toBe(200);
    expect(res.body.Providers.delayed_provider?.status).toBe("error");
    const sources = res.body.Sources;
    expect(sources.Highlights).toEqual({
      PERatio: "scraped_onvista",
      DividendYield: "scraped_onvista",
      EarningsShare: "scraped_onvista",
      DilutedEpsTTM: "scraped_onvista",
    });
    expect(sources.Valuation).toEqual({ TrailingPE: "scraped_onvista" });
    // A page's trailing yield is not a forward yield: that field stays empty.
    expect(sources.SplitsDividends).toBeUndefined();
    expect((res.body.SplitsDividends as Section).ForwardAnnualDividendYield).toBeNull();
    const h = res.body.Highlights as Section;
    // The page's yield is written in percent: a ratio here.
    expect(n(h.DividendYield)).toBeLessThan(0.1);
    // Estimates are other quantities: never filled from a page.
    expect(h.EPSEstimateCurrentYear).toBeNull();
  });

  it("refuses a percent-scaled yield it cannot disambiguate, and stores the verdict", async () => {
    const res = await call<Doc>("/fundamental?ticker=ADYEN.AS&provider=scraped_onvista&nocache=true");
    const entry = res.body.Providers.scraped_onvista as { figures: Record<string, Section> };
    expect(entry.figures.dividend_yield).toEqual({
      raw: 0.21,
      value: null,
      status: "out_of_range",
      reason: "ambiguous scale: 0.21 reads as 21 % or as 0.21 %, and no reference tells which",
    });
    expect((res.body.Highlights as Section).DividendYield).toBeNull();
    const stored = await withDb((db) =>
      db
        .select({ status: validationResults.status, value: validationResults.value, reason: validationResults.reason })
        .from(validationResults)
        .where(
          and(
            eq(validationResults.ticker, "ADYEN.AS"),
            eq(validationResults.providerName, "scraped_onvista"),
            eq(validationResults.field, "dividend_yield"),
          ),
        ),
    );
    expect(stored).toEqual([{ status: "out_of_range", value: "0.21", reason: entry.figures.dividend_yield?.reason }]);
  });
});

describe("GET /fundamental: the database as the second source", () => {
  beforeAll(() => resetTickers("DG.PA"));

  it("labels figures stored by an earlier enrichment with their fetch date when the provider fails", async () => {
    const first = await call<Doc>("/fundamental?ticker=DG.PA&nocache=true", { at: "2026-11-20T10:00:00Z" });
    expect(first.body.Providers.delayed_provider?.status).toBe("ok");
    await fault(yahoo, "DG.PA", "500", 100);
    const res = await call<Doc>("/fundamental?ticker=DG.PA&nocache=true");
    expect(res.body.Providers.delayed_provider?.status).toBe("error");
    expect(res.body.Sources.Highlights?.PERatio).toBe("database (2026-11-20)");
    expect(res.body.Sources.Financials).toEqual({
      Balance_Sheet: "database (2026-11-20)",
      Cash_Flow: "database (2026-11-20)",
      Income_Statement: "database (2026-11-20)",
    });
    expect((res.body.Highlights as Section).PERatio).toBe((first.body.Highlights as Section).PERatio);
  });
});

describe("GET /fundamental: what a caller can ask", () => {
  it("asks only the providers named", async () => {
    const res = await call<Doc>("/fundamental?ticker=SAF.PA&provider=scraped_onvista&nocache=true");
    expect(Object.keys(res.body.Providers)).toEqual(["scraped_onvista"]);
    const bad = await call<ErrorBody>("/fundamental?ticker=SAF.PA&provider=gossip_weekly");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      "unknown provider gossip_weekly; use one or several of delayed_provider, scraped_businessinsider, scraped_onvista",
    );
  });

  it("answers fmt=raw with each provider's answer as it came", async () => {
    const res = await call<RawFundamentalsAnswer>("/fundamental?ticker=CVX&fmt=raw&nocache=true");
    expect(res.status).toBe(200);
    const delayed = res.body.delayed_provider as { status: string; answer: Record<string, Section> };
    expect(delayed.status).toBe("ok");
    expect(delayed.answer.price?.symbol).toBe("CVX");
    expect(delayed.answer.summaryDetail?.trailingPE).toEqual(expect.any(Number));
    expect(res.body.scraped_businessinsider?.status).toBe("ok");
    const series = (res.body.delayed_provider as { timeseries: { statement: string; period: string }[] }).timeseries;
    expect(series.map((s) => `${s.statement}/${s.period}`)).toContain("income/quarterly");
  });

  it("answers from the cache within the hour without asking any provider, and builds anew with nocache", async () => {
    const a = await call<Doc>("/fundamental?ticker=SAF.PA");
    const asked = async () => (await simRequests(yahoo))["quoteSummary SAF.PA"] ?? 0;
    const before = await asked();
    const b = await call<Doc>("/fundamental?ticker=SAF.PA");
    expect(b.body).toEqual(a.body);
    expect(await asked()).toBe(before);
    await call<Doc>("/fundamental?ticker=SAF.PA&nocache=true");
    expect(await asked()).toBe(before + 1);
  });

  it("refuses a request without ticker or isin with 400, and answers 404 for a ticker the catalogue lacks", async () => {
    expect((await call<ErrorBody>("/fundamental")).status).toBe(400);
    const missing = await call<ErrorBody>("/fundamental?ticker=NOSUCH");
    expect(missing.status).toBe(404);
    expect(missing.body.reason).toBe("NOSUCH is not a listing of the catalogue; no provider knows NOSUCH");
  });
});

describe("GET /fundamental: a listing without a verified symbol, as a new user meets it", () => {
  const ticker = uniqueTicker(".PA");
  let isin = "";
  beforeAll(async () => {
    isin = (await withDb((db) => createListing(db, { ticker, exchange: "PAR", currency: "EUR" }))).asset.isin;
  });
  afterAll(() => withDb((db) => db.delete(assets).where(eq(assets.isin, isin))));

  it("answers 200 and says why the delayed provider was not asked", async () => {
    const res = await call<Doc>(`/fundamental?ticker=${ticker}`);
    expect(res.status).toBe(200);
    expect(res.body.Providers.delayed_provider).toEqual({
      status: "not_queried",
      symbol: null,
      reason: `the delayed provider has no symbol of ${isin} on PAR quoted in EUR`,
    });
    expect(res.body.General).toMatchObject({ ISIN: isin, Code: ticker.slice(0, -3) });
  });
});

describe("GET /stocks/{ticker}/financials (legacy)", () => {
  it("answers the delayed provider's statements for the symbol as typed", async () => {
    const res = await call<LegacyFinancialsAnswer>("/stocks/MSFT/financials");
    expect(res.status).toBe(200);
    expect(res.body.symbol).toBe("MSFT");
    // Microsoft's fiscal year ends in June.
    expect(res.body.statements.income.annual.map((r) => r.period_end)).toEqual([
      "2026-06-30",
      "2025-06-30",
      "2024-06-30",
      "2023-06-30",
      "2022-06-30",
    ]);
    expect(res.body.statements.cashflow.quarterly).toHaveLength(6);
  });

  it("answers 404 for a symbol the provider does not know", async () => {
    const res = await call<ErrorBody>("/stocks/ZZZZZ/financials");
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("No statements found for ZZZZZ");
  });
});
