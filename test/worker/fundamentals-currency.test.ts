import Decimal from "decimal.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { EodAnswer } from "../../src/routes/eod/schema";
import type { RenderedFundamentalsAnswer } from "../../src/routes/fundamentals/schema";
import type { FxSeriesBody } from "../../src/routes/fx/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { resetFxRates, resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

/**
 * Ferrari's New York line: the company reports in euros, the line trades in dollars. The document
 * says which figure is in which, and convert= gives them all in one currency: snapshot figures at
 * the newest reference rate, balance sheets at their period end's, flows at their period's average.
 * Friday 27 November 2026 after the ECB's publication.
 */
const AT = "2026-11-27T18:00:00Z";
const RACE = "/fundamental?ticker=RACE&currency=USD";
type Doc = RenderedFundamentalsAnswer;
type Section = Record<string, unknown>;
type Rows = Record<string, Record<string, string | null>>;
type Statements = Record<string, { currency_symbol: string; yearly: Rows; quarterly: Rows }>;

const times = (x: number, rate: string) =>
  new Decimal(String(x)).times(rate).toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toNumber();
const fixed2 = (x: string, rate: string) => new Decimal(x).times(rate).toFixed(2, Decimal.ROUND_HALF_EVEN);

async function series(pair: string, from: string, to: string) {
  const res = await call<FxSeriesBody>(`/fx/${pair}?from=${from}&to=${to}`, { at: AT });
  expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(200);
  return res.body.data;
}

/** A converted document once every rate it needs is stored (older years come through the queue, their figures null meanwhile). */
async function converted(to: string, path = RACE): Promise<Doc> {
  for (let i = 0; i < 80; i++) {
    const res = await call<Doc>(`${path}&convert=${to}`, { at: AT });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    if (!res.body.Conversion?.Notes.some((n) => n.includes("being fetched"))) return res.body;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the rates never came");
}

beforeAll(async () => {
  await resetFxRates();
  await resetTickers("RACE");
});

describe("GET /fundamental: trading and reporting currencies", () => {
  it("tells the figures in the trading currency (dollars) from those in the reporting one (euros)", async () => {
    const res = await call<Doc>(`${RACE}&nocache=true`, { at: AT });
    expect(res.status).toBe(200);
    const c = res.body.Currencies;
    expect(c).toMatchObject({ Trading: "USD", Quoted: "USD", Reporting: "EUR" });
    expect(c.Figures.Highlights).toMatchObject({
      MarketCapitalization: "USD",
      EarningsShare: "USD",
      WallStreetTargetPrice: "USD",
      EBITDA: "EUR",
      RevenueTTM: "EUR",
      BookValue: "EUR",
      EPSEstimateCurrentYear: "EUR",
    });
    expect(c.Figures.Valuation).toEqual({ EnterpriseValue: "USD" });
    expect(c.Figures.Technicals?.["52WeekHigh"]).toBe("USD");
    expect(c.Figures.Financials).toEqual({ Balance_Sheet: "EUR", Cash_Flow: "EUR", Income_Statement: "EUR" });
    expect(c.Figures.Earnings).toEqual({ History: "EUR", Trend: "EUR", Annual: "EUR" });
    // Ratios and counts have no currency.
    expect(c.Figures.Highlights).not.toHaveProperty("PERatio");
    expect(c.Figures).not.toHaveProperty("SharesStats");
    const fin = res.body.Financials as Statements;
    expect(fin.Income_Statement?.currency_symbol).toBe("EUR");
    expect(res.body.Conversion).toBeUndefined();
  });

  it("convert=USD: euro figures at the newest, closing and average rates; dollar figures unchanged", async () => {
    const own = (await call<Doc>(RACE, { at: AT })).body;
    const usd = await converted("USD");
    const newest = (await series("EUR/USD", "2026-11-27", "2026-11-27"))[0]?.rate ?? "";
    expect(newest).toMatch(/^1\.\d+$/);
    const h = own.Highlights as Section;
    const hu = usd.Highlights as Section;
    expect(hu.MarketCapitalization).toBe(h.MarketCapitalization);
    expect(hu.EarningsShare).toBe(h.EarningsShare);
    expect(hu.EBITDA).toBe(times(h.EBITDA as number, newest));
    expect(hu.BookValue).toBe(times(h.BookValue as number, newest));
    expect(hu.PERatio).toBe(h.PERatio);
    expect(usd.Conversion).toMatchObject({
      To: "USD",
      Rates: {
        USD: { rate: "1", source: "identity", basis: "newest" },
        EUR: { rate: newest, published: "2026-11-27", source: "ecb_reference_rates", basis: "newest" },
      },
      Notes: [],
    });
    expect(usd.Currencies).toMatchObject({ Trading: "USD", Reporting: "EUR", ConvertedTo: "USD" });
    expect(new Set(Object.values(usd.Currencies.Figures).flatMap((s) => Object.values(s)))).toEqual(new Set(["USD"]));

    const fin = own.Financials as Statements;
    const finUsd = usd.Financials as Statements;
    const yearEnd = Object.keys(fin.Balance_Sheet?.yearly ?? {})[0] ?? "";
    expect(yearEnd).toBe("2025-12-31");
    // A balance sheet at its period end's rate.
    const closing = (await series("EUR/USD", yearEnd, yearEnd))[0]?.rate ?? "";
    const bs = fin.Balance_Sheet?.yearly[yearEnd] ?? {};
    const bsUsd = finUsd.Balance_Sheet?.yearly[yearEnd] ?? {};
    expect(bsUsd).toMatchObject({ currency_symbol: "USD", fx_rate: closing, fx_basis: `closing (${yearEnd})` });
    expect(bsUsd.totalAssets).toBe(fixed2(bs.totalAssets ?? "", closing));
    expect(bsUsd.netDebt).toBe(fixed2(bs.netDebt ?? "", closing));
    expect(bsUsd.commonStockSharesOutstanding).toBe(bs.commonStockSharesOutstanding);
    // An income statement at the average of its year's publications.
    const year = (await series("EUR/USD", "2025-01-01", "2025-12-31")).filter((r) => !r.carried_forward);
    expect(year.length).toBeGreaterThan(250);
    const average = year
      .reduce((s, r) => s.plus(r.rate), new Decimal(0))
      .div(year.length)
      .toSignificantDigits(10, Decimal.ROUND_HALF_EVEN)
      .toFixed();
    const inc = fin.Income_Statement?.yearly[yearEnd] ?? {};
    const incUsd = finUsd.Income_Statement?.yearly[yearEnd] ?? {};
    expect(incUsd.fx_rate).toBe(average);
    expect(incUsd.fx_basis).toBe(`average of ${year.length} publications (${year[0]?.date}..${year.at(-1)?.date})`);
    for (const line of ["totalRevenue", "netIncome", "ebitda"])
      expect(incUsd[line], line).toBe(fixed2(inc[line] ?? "", average));
    // A cash flow at the same average; a quarter's EPS at its quarter's; estimates at the newest rate.
    expect(finUsd.Cash_Flow?.yearly[yearEnd]?.fx_rate).toBe(average);
    type Earn = Record<string, Record<string, Record<string, number | string | null>>>;
    const e = own.Earnings as Earn;
    const eu = usd.Earnings as Earn;
    // The newest quarter runs from the day after the one before it ends.
    const [quarter, before] = Object.keys(eu.History ?? {})
      .sort()
      .reverse();
    const start = new Date(Date.parse(`${before}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const days = (await series("EUR/USD", start, quarter ?? "")).filter((r) => !r.carried_forward);
    const quarterRate = days
      .reduce((sum, r) => sum.plus(r.rate), new Decimal(0))
      .div(days.length)
      .toSignificantDigits(10, Decimal.ROUND_HALF_EVEN)
      .toFixed();
    const q = eu.History?.[quarter ?? ""];
    expect(q?.fx_rate).toBe(quarterRate);
    expect(q?.fx_basis).toBe(`average of ${days.length} publications (${days[0]?.date}..${days.at(-1)?.date})`);
    expect(q?.currency).toBe("USD");
    expect(q?.epsActual).toBe(times(e.History?.[quarter ?? ""]?.epsActual as number, quarterRate));
    const [horizon, trend] = Object.entries(eu.Trend ?? {})[0] ?? [];
    const ownTrend = e.Trend?.[horizon ?? ""] ?? {};
    expect(trend?.earningsEstimateAvg).toBe(
      new Decimal(String(ownTrend.earningsEstimateAvg)).times(newest).toFixed(4, Decimal.ROUND_HALF_EVEN),
    );
    // The statements still add up to the cent's rounding.
    expect(
      Math.abs(Number(incUsd.totalRevenue) - Number(incUsd.costOfRevenue) - Number(incUsd.grossProfit)),
    ).toBeLessThan(0.02);
  });

  it("convert=GBP: dollar figures crossed through the euro, euro figures at the pound's rate", async () => {
    const own = (await call<Doc>(RACE, { at: AT })).body;
    const gbp = await converted("GBP");
    const usdGbp = (await series("USD/GBP", "2026-11-27", "2026-11-27"))[0]?.rate ?? "";
    const eurGbp = (await series("EUR/GBP", "2026-11-27", "2026-11-27"))[0]?.rate ?? "";
    const h = own.Highlights as Section;
    expect((gbp.Highlights as Section).MarketCapitalization).toBe(times(h.MarketCapitalization as number, usdGbp));
    expect((gbp.Highlights as Section).RevenueTTM).toBe(times(h.RevenueTTM as number, eurGbp));
    expect((gbp.Technicals as Section)["52WeekHigh"]).toBe(
      times((own.Technicals as Section)["52WeekHigh"] as number, usdGbp),
    );
  });

  it("a London fund quoted in pence: its price figures in pence, converted from them", async () => {
    // SWDA.L is read, never reset here (the conversion tests of /eod use it too).
    const res = await call<Doc>("/fundamental?ticker=SWDA.L&nocache=true", { at: AT });
    expect(res.status).toBe(200);
    expect(res.body.Currencies).toMatchObject({ Trading: "GBP", Quoted: "GBp" });
    expect(res.body.Currencies.Figures.Technicals?.["50DayMA"]).toBe("GBp");
    // The 50-day average in pence: a hundred times the stored closes' (pounds), to the simulator's rounding.
    const eod = await call<EodAnswer>("/eod/SWDA.L?from=2026-08-01&to=2026-11-20", { at: AT });
    const closes = eod.body.data.map((b) => b.Close).slice(-50);
    const mean = closes.reduce((a, b) => a + b, 0) / closes.length;
    const ma = (res.body.Technicals as Section)["50DayMA"] as number;
    expect(Math.abs(ma / 100 / mean - 1)).toBeLessThan(0.01);
    const gbp = await converted("GBP", "/fundamental?ticker=SWDA.L");
    expect((gbp.Technicals as Section)["50DayMA"]).toBe(times(ma, "0.01"));
    expect(gbp.Conversion?.Rates.GBp).toMatchObject({ rate: "0.01", source: "identity" });
  });

  it("refuses convert= on the raw answers and an unknown currency", async () => {
    const raw = await call<ErrorBody>(`${RACE}&fmt=raw&convert=USD`, { at: AT });
    expect(raw.status).toBe(400);
    expect(raw.body.message).toContain("fmt=eodhd");
    const bad = await call<ErrorBody>(`${RACE}&convert=XYZ`, { at: AT });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("has no rates");
  });
});
