import { describe, expect, it } from "vitest";
import { statementLineRule } from "../../src/domain/fundamentals/fields";
import { checkEarnings, checkFund, checkStatements, checkTrends } from "../../src/domain/fundamentals/validate-records";

/** The validation layer on the deep enrichment's rows: statement lines, earnings, trends, fund weights. */

const P = "delayed_provider";

describe("statement lines through the validation layer", () => {
  const statements = [
    {
      statement: "income" as const,
      period: "annual" as const,
      rows: [
        {
          periodEnd: "2025-09-30",
          items: { total_revenue: 416_161_000_000, diluted_eps: 7.46, diluted_average_shares: 15_004_697_000 },
        },
        // A revenue no company has had, and a negative share count: each refused alone, the row keeps the rest.
        {
          periodEnd: "2024-09-30",
          items: { total_revenue: 3.9e17, diluted_eps: 6.08, diluted_average_shares: -15_408_095_000 },
        },
      ],
    },
  ];

  it("keeps the values within their line's bounds and leaves the refused ones out of their row", () => {
    const { value } = checkStatements(P, statements);
    expect(value[0]?.rows).toEqual([
      {
        periodEnd: "2025-09-30",
        items: { total_revenue: 416_161_000_000, diluted_eps: 7.46, diluted_average_shares: 15_004_697_000 },
      },
      { periodEnd: "2024-09-30", items: { diluted_eps: 6.08 } },
    ]);
  });

  it("gives each line one verdict: its first refusal, naming the period, else the newest valid value", () => {
    const { verdicts } = checkStatements(P, statements);
    const by = Object.fromEntries(verdicts.map((v) => [v.field, v]));
    expect(Object.keys(by).sort()).toEqual([
      "statements.income.annual.diluted_average_shares",
      "statements.income.annual.diluted_eps",
      "statements.income.annual.total_revenue",
    ]);
    expect(by["statements.income.annual.total_revenue"]).toMatchObject({ status: "out_of_range", raw: 3.9e17 });
    expect(by["statements.income.annual.total_revenue"]?.reason).toMatch(/^2024-09-30: /);
    expect(by["statements.income.annual.diluted_average_shares"]).toMatchObject({
      status: "out_of_range",
      raw: -15_408_095_000,
    });
    expect(by["statements.income.annual.diluted_eps"]).toMatchObject({ status: "valid", value: 7.46 });
  });

  it("rules a line by its name: per share, a share count, else an amount", () => {
    expect(statementLineRule("diluted_eps").kind).toBe("per_share");
    expect(statementLineRule("basic_eps").kind).toBe("per_share");
    expect(statementLineRule("ordinary_shares_number").kind).toBe("count");
    expect(statementLineRule("share_issued").kind).toBe("count");
    expect(statementLineRule("net_income").kind).toBe("amount");
  });
});

describe("earnings history and trend through the validation layer", () => {
  it("refuses an EPS no share has had, keeping the quarter's other figures", () => {
    const { value, verdicts } = checkEarnings(P, [
      {
        quarterEnd: "2025-06-30",
        period: "-1q",
        epsActual: 1.57,
        epsEstimate: 1.43,
        epsDifference: 0.14,
        surprisePercent: 9.79,
      },
      {
        quarterEnd: "2025-03-31",
        period: "-2q",
        epsActual: 4.2e7,
        epsEstimate: 1.61,
        epsDifference: 0.04,
        surprisePercent: 2.48,
      },
    ]);
    expect(value.map((r) => r.epsActual)).toEqual([1.57, null]);
    expect(value[1]?.epsEstimate).toBe(1.61);
    expect(verdicts.find((v) => v.field === "earnings.eps_actual")).toMatchObject({
      status: "out_of_range",
      raw: 4.2e7,
    });
    expect(verdicts.find((v) => v.field === "earnings.surprise_percent")).toMatchObject({
      status: "valid",
      value: 9.79,
    });
  });

  it("keeps a growth as the ratio the provider sends, and refuses a negative number of analysts", () => {
    const { value, verdicts } = checkTrends(P, [
      {
        period: "+1y",
        endDate: "2026-09-30",
        growth: 0.0949,
        epsAvg: 8.23,
        epsLow: 7.5,
        epsHigh: 9.1,
        revenueAvg: 4.5e11,
        analysts: -3,
      },
    ]);
    expect(value[0]).toMatchObject({ growth: 0.0949, epsAvg: 8.23, revenueAvg: 4.5e11, analysts: null });
    expect(verdicts.find((v) => v.field === "trend.analysts")?.status).toBe("out_of_range");
  });
});

describe("a fund's weights through the validation layer", () => {
  it("keeps ratios, converts a weight only plausible percent-scaled, and drops a sector weight of no reading", () => {
    const { value, verdicts } = checkFund(P, {
      topHoldings: [
        { symbol: "NVDA", name: "NVIDIA Corp", weight: 0.0876 },
        { symbol: "MSFT", name: "Microsoft Corp", weight: 8.12 },
      ],
      sectorWeights: [
        { sector: "technology", weight: 0.5 },
        { sector: "realestate", weight: 250 },
      ],
      assetClasses: { stock: 0.9957, cash: 0.0043, bond: null },
    });
    expect(value?.topHoldings.map((h) => h.weight)).toEqual([0.0876, 0.0812]);
    expect(value?.sectorWeights).toEqual([{ sector: "technology", weight: 0.5 }]);
    expect(value?.assetClasses).toEqual({ stock: 0.9957, cash: 0.0043, bond: null });
    expect(verdicts.find((v) => v.field === "fund.sector_weight")).toMatchObject({ status: "out_of_range", raw: 250 });
  });

  it("has nothing to check without a fund", () => {
    expect(checkFund(P, null)).toEqual({ value: null, verdicts: [] });
  });
});
