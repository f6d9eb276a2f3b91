import { describe, expect, it } from "vitest";
import { ddmModel } from "../../src/domain/dcf/ddm-model";
import { epsModel } from "../../src/domain/dcf/eps-model";
import { fcfModel } from "../../src/domain/dcf/fcf-model";
import { type AnnualRow, compoundGrowth, fcfBase } from "../../src/domain/dcf/inputs";
import { consensusOf, type ModelResult } from "../../src/domain/dcf/models";
import { Dec } from "../../src/domain/dcf/numbers";
import { gridSteps, sensitivityGrid } from "../../src/domain/dcf/sensitivity";
import { computeWacc } from "../../src/domain/dcf/wacc";

/** The reference's worked examples (fundamentals-dcf.md B.6): per-share values to +-0.005. */
const d = (x: number | string) => new Dec(x);
const near = (r: ModelResult, expected: number) => {
  expect(r.value, r.reason ?? "").not.toBeNull();
  expect(Math.abs((r.value as Dec).toNumber() - expected), (r.value as Dec).toFixed(6)).toBeLessThanOrEqual(0.005);
};

const example1 = (wacc = "0.09", terminalGrowth = "0.025") =>
  fcfModel({
    baseCashFlow: d(600),
    growth: d("0.06"),
    years: 5,
    wacc: d(wacc),
    terminalGrowth: d(terminalGrowth),
    netDebt: d(1500),
    shares: d(500),
    price: d(16),
  });

describe("WACC (example 1)", () => {
  it("CAPM 10 %, after-tax debt 5 %, weights 0.8 / 0.2: 9.00 %, every default named when used", () => {
    const w = computeWacc({
      riskFreeRate: d("0.04"),
      riskFreeRateSource: "client_override",
      equityRiskPremium: d("0.05"),
      beta: d("1.2"),
      interestExpense: d(-125),
      incomeTax: d(200),
      pretaxIncome: d(1000),
      marketCap: d(8000),
      totalDebt: d(2000),
    });
    expect(w.costOfEquity.toFixed()).toBe("0.1");
    expect(w.costOfDebt.toFixed()).toBe("0.0625");
    expect(w.taxRate.toFixed()).toBe("0.2");
    expect([w.weightEquity.toFixed(), w.weightDebt.toFixed()]).toEqual(["0.8", "0.2"]);
    expect(w.wacc.toFixed()).toBe("0.09");
    expect(w.costOfDebtSource).toBe("calculated");
    expect(w.warnings).toEqual([]);
  });

  it("missing beta, tax and interest: beta 1, 25 %, risk-free + 2 points, each with a warning; bounded to 5-20 %", () => {
    const w = computeWacc({
      riskFreeRate: d("0.042"),
      riskFreeRateSource: "env_fallback",
      equityRiskPremium: d("0.055"),
      beta: null,
      interestExpense: null,
      incomeTax: null,
      pretaxIncome: d(-10),
      marketCap: d(1000),
      totalDebt: d(0),
    });
    expect(w.betaUsed.toFixed()).toBe("1");
    expect(w.taxRate.toFixed()).toBe("0.25");
    expect(w.costOfDebt.toFixed()).toBe("0.062");
    expect(w.costOfDebtSource).toBe("default");
    expect(w.wacc.toFixed()).toBe("0.097");
    expect(w.warnings).toHaveLength(3);
    const high = computeWacc({
      riskFreeRate: d("0.10"),
      riskFreeRateSource: "client_override",
      equityRiskPremium: d("0.08"),
      beta: d("2.5"),
      interestExpense: null,
      incomeTax: d(1),
      pretaxIncome: d(10),
      marketCap: d(1000),
      totalDebt: d(0),
    });
    expect(high.wacc.toFixed()).toBe("0.2");
    expect(high.warnings.some((x) => x.startsWith("WACC 30 % kept within 5-20 %"))).toBe(true);
  });
});

describe("fcf model (example 1)", () => {
  it("18.98 per share: year-end flows, TV from FCF_5 x 1.025 discounted five years", () => {
    const r = example1();
    near(r, 18.98);
    expect(r.projected.map((x) => x.toFixed(4))).toEqual(
      ["636", "674.16", "714.6096", "757.486176", "802.93534656"].map((x) => d(x).toFixed(4)),
    );
    expect(r.present.map((x) => x.toDecimalPlaces(4).toNumber())).toEqual([
      583.4862, 567.427, 551.8097, 536.6223, 521.8529,
    ]);
    expect(r.terminalValue?.toDecimalPlaces(4).toNumber()).toBe(12661.6728);
    expect(r.pvTerminal?.toDecimalPlaces(4).toNumber()).toBe(8229.2185);
    expect(r.upsidePct?.toDecimalPlaces(1).toNumber()).toBe(18.6);
  });

  it("never the double-discount answer 17.62 (TV discounted at n + 1)", () => {
    const v = (example1().value as Dec).toNumber();
    expect(Math.abs(v - 17.62)).toBeGreaterThan(1);
  });

  it("the sensitivity grid of the reference, cell by cell", () => {
    const grid = sensitivityGrid(
      gridSteps(d("0.08"), d("0.10"), d("0.005")) ?? [],
      gridSteps(d("0.015"), d("0.035"), d("0.005")) ?? [],
      (w, g) => example1(w.toFixed(), g.toFixed()),
    );
    const expected = [
      [19.74, 21.25, 23.04, 25.19, 27.81],
      [18.08, 19.36, 20.84, 22.6, 24.7],
      [16.65, 17.73, 18.98, 20.44, 22.16],
      [15.39, 16.32, 17.39, 18.61, 20.05],
      [14.28, 15.09, 16.0, 17.05, 18.25],
    ];
    expect(grid.map((row) => row.map((c) => Number((c.value as Dec).toFixed(2))))).toEqual(expected);
    for (const [i, row] of grid.entries())
      for (const [j, c] of row.entries())
        expect(Math.abs((c.value as Dec).toNumber() - (expected[i]?.[j] ?? 0))).toBeLessThanOrEqual(0.005);
  });

  it("a cell whose growth reaches the rate is null; a growth within half a point is capped with a warning", () => {
    const grid = sensitivityGrid([d("0.04")], [d("0.03"), d("0.038"), d("0.04"), d("0.05")], (w, g) =>
      example1(w.toFixed(), g.toFixed()),
    );
    expect(grid[0]?.map((c) => c.value === null)).toEqual([false, true, true, true]);
    // Within half a point: the model would cap it, so the cell would not be its column's.
    expect(grid[0]?.[1]?.reason).toMatch(/within half a point/);
    const capped = example1("0.09", "0.088");
    expect(capped.inputs.terminal_growth?.toFixed()).toBe("0.085");
    expect(capped.warnings[0]).toMatch(/capped at 8.5 %/);
  });

  it("a negative or zero base, unknown shares, debt above the enterprise value: null with a reason", () => {
    const base = { growth: d("0.06"), years: 5, wacc: d("0.09"), terminalGrowth: d("0.025"), price: d(16) };
    const neg = fcfModel({ ...base, baseCashFlow: d(-5), netDebt: d(0), shares: d(10) });
    expect([neg.value, neg.reason]).toEqual([null, expect.stringContaining("not positive")]);
    const zero = fcfModel({ ...base, baseCashFlow: d(0), netDebt: d(0), shares: d(10) });
    expect(zero.value).toBeNull();
    const debt = fcfModel({ ...base, baseCashFlow: d(600), netDebt: d(20_000), shares: d(500) });
    expect([debt.value, debt.reason]).toEqual([null, expect.stringContaining("net debt exceeds")]);
  });
});

describe("ddm model (example 2)", () => {
  it("Gordon 41.60 on next year's dividend, never 40.00 from this year's", () => {
    const r = ddmModel({
      dividend: d(2),
      growth: d("0.04"),
      years: 5,
      costOfEquity: d("0.09"),
      terminalGrowth: d("0.04"),
      price: null,
    });
    near(r, 41.6);
    expect(Math.abs((r.value as Dec).toNumber() - 40)).toBeGreaterThan(1);
  });

  it("two-stage 40.76: 7 % for five years, then 3 %", () => {
    const r = ddmModel({
      dividend: d(2),
      growth: d("0.07"),
      years: 5,
      costOfEquity: d("0.09"),
      terminalGrowth: d("0.03"),
      price: null,
    });
    near(r, 40.76);
    expect(r.projected.map((x) => x.toDecimalPlaces(4).toNumber())).toEqual([2.14, 2.2898, 2.4501, 2.6216, 2.8051]);
    expect(r.terminalValue?.toDecimalPlaces(2).toNumber()).toBe(48.15);
  });

  it("no dividend: null with a reason", () => {
    const r = ddmModel({
      dividend: null,
      growth: d(0),
      years: 5,
      costOfEquity: d("0.09"),
      terminalGrowth: d("0.02"),
      price: null,
    });
    expect([r.value, r.reason]).toEqual([null, "the company pays no dividend"]);
  });
});

describe("eps model (example 3)", () => {
  it("164.14 with P/E 35 bounded to 30; 170.74 with a 25 % payout", () => {
    const p = { eps: d(5), growth: d("0.12"), years: 5, costOfEquity: d("0.10"), peRatio: d(35), price: null };
    const r = epsModel({ ...p, payoutRatio: d(0) });
    near(r, 164.14);
    expect(r.inputs.terminal_pe?.toFixed()).toBe("30");
    expect(r.warnings).toEqual(["P/E 35 bounded to [10, 30]: terminal P/E 30 used"]);
    near(epsModel({ ...p, payoutRatio: d("0.25") }), 170.74);
  });

  it("17.67 with P/E 6 raised to 10; 15 when the P/E is unknown; EPS <= 0 gives no value", () => {
    const p = { eps: d("2.40"), growth: d("0.03"), years: 5, costOfEquity: d("0.095"), payoutRatio: d(0), price: null };
    near(epsModel({ ...p, peRatio: d(6) }), 17.67);
    expect(epsModel({ ...p, peRatio: null }).inputs.terminal_pe?.toFixed()).toBe("15");
    const loss = epsModel({ ...p, eps: d("-1.2"), peRatio: null });
    expect([loss.value, loss.reason]).toEqual([null, expect.stringContaining("EPS is not positive")]);
  });
});

describe("consensus and inputs", () => {
  it("weights renormalised over the models that have a value: fcf and eps alone weigh 62.5 / 37.5", () => {
    const fcf = example1();
    const eps = epsModel({
      eps: d(5),
      growth: d("0.12"),
      years: 5,
      costOfEquity: d("0.10"),
      peRatio: d(35),
      payoutRatio: d(0),
      price: null,
    });
    const ddm = ddmModel({
      dividend: null,
      growth: d(0),
      years: 5,
      costOfEquity: d("0.09"),
      terminalGrowth: d("0.02"),
      price: null,
    });
    const c = consensusOf([fcf, eps, ddm]);
    expect(c.weights.fcf?.toFixed()).toBe("0.625");
    expect(c.weights.eps?.toFixed()).toBe("0.375");
    const expected = (fcf.value as Dec).times("0.625").plus((eps.value as Dec).times("0.375"));
    expect(c.value?.toFixed(10)).toBe(expected.toFixed(10));
    expect(consensusOf([ddm]).value).toBeNull();
  });

  it("the base is the mean of the last three fiscal years' free cash flow; growth is compound over the years between", () => {
    const rows: AnnualRow[] = [
      { periodEnd: "2025-12-31", items: { free_cash_flow: 900 } },
      { periodEnd: "2024-12-31", items: { operating_cash_flow: 1000, capital_expenditure: -400 } },
      { periodEnd: "2023-12-31", items: { free_cash_flow: 300 } },
      { periodEnd: "2022-12-31", items: { free_cash_flow: 10_000 } },
    ];
    expect(fcfBase(rows).base?.toFixed()).toBe("600");
    expect(fcfBase(rows.slice(0, 1)).warnings[0]).toMatch(/free cash flow of 1 of the last three fiscal years/);
    // A year without one among the last three is left out, never replaced by an older year.
    const gap: AnnualRow[] = [{ periodEnd: "2026-12-31", items: { total_revenue: 5 } }, ...rows];
    expect(fcfBase(gap).years.map((y) => y.period_end)).toEqual(["2025-12-31", "2024-12-31"]);
    expect(fcfBase(gap).base?.toFixed()).toBe("750");
    const g = compoundGrowth([
      { periodEnd: "2025-12-31", value: d(121) },
      { periodEnd: "2023-12-31", value: d(100) },
    ]);
    expect(g?.toDecimalPlaces(10).toFixed()).toBe("0.1");
    expect(
      compoundGrowth([
        { periodEnd: "2025-12-31", value: d(1) },
        { periodEnd: "2023-12-31", value: d(-1) },
      ]),
    ).toBeNull();
  });
});
