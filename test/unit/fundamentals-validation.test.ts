import { describe, expect, it } from "vitest";
import { highlightFigures } from "../../src/domain/fundamentals/delayed-figures";
import { snakeCase, statementRows } from "../../src/domain/fundamentals/statements";
import { validate } from "../../src/domain/fundamentals/validation";

const p = "some_provider";

describe("the validation layer", () => {
  it("counts an absent or non-numeric value as null", () => {
    expect(validate({ provider: p, field: "pe_ratio", value: null })).toMatchObject({
      status: "null",
      value: null,
      reason: "no value",
    });
    expect(validate({ provider: p, field: "pe_ratio", value: Number.NaN })).toMatchObject({
      status: "null",
      reason: "not a number",
    });
  });

  it("refuses a value outside its field's bounds", () => {
    expect(validate({ provider: p, field: "pe_ratio", value: 48213.7 })).toEqual({
      provider: p,
      field: "pe_ratio",
      status: "out_of_range",
      raw: 48213.7,
      value: null,
      reason: "48213.7 is outside [0, 1500]",
    });
    expect(validate({ provider: p, field: "beta", value: -12 }).status).toBe("out_of_range");
    expect(validate({ provider: p, field: "pe_ratio", value: 26.17 })).toMatchObject({
      status: "valid",
      value: 26.17,
      reason: null,
    });
  });

  it("reads a percent-declared ratio as a ratio", () => {
    expect(validate({ provider: p, field: "dividend_yield", value: 0.55, unit: "percent" })).toMatchObject({
      status: "valid",
      raw: 0.55,
      value: 0.0055,
    });
  });

  it("converts a percent-scaled value when only one reading is plausible", () => {
    // A yield of 32 % no share has: the provider sent 0.32 for 0.32 %.
    expect(validate({ provider: p, field: "dividend_yield", value: 0.32 })).toMatchObject({
      status: "valid",
      value: 0.0032,
      reason: "percent-scaled: 0.32 read as 0.32 %",
    });
    expect(validate({ provider: p, field: "dividend_yield", value: 2.1, unit: "unknown" })).toMatchObject({
      status: "valid",
      value: 0.021,
    });
  });

  it("refuses a percent-scaled value it cannot disambiguate, and lets a reference decide when there is one", () => {
    expect(validate({ provider: p, field: "dividend_yield", value: 0.05, unit: "unknown" })).toMatchObject({
      status: "out_of_range",
      value: null,
      reason: "ambiguous scale: 0.05 reads as 5 % or as 0.05 %, and no reference tells which",
    });
    expect(
      validate({ provider: p, field: "dividend_yield", value: 0.05, unit: "unknown" }, { peers: [0.00052] }),
    ).toMatchObject({
      status: "valid",
      value: 0.0005,
    });
    expect(
      validate({ provider: p, field: "dividend_yield", value: 0.05, unit: "unknown" }, { history: [0.048] }),
    ).toMatchObject({
      status: "valid",
      value: 0.05,
    });
  });

  it("marks an outlier against the other providers and against the instrument's own history", () => {
    expect(validate({ provider: p, field: "pe_ratio", value: 52 }, { peers: [25, 26] })).toMatchObject({
      status: "outlier",
      reason: "52 against 25.5 from the other providers",
    });
    expect(validate({ provider: p, field: "pe_ratio", value: 30 }, { peers: [25, 26] }).status).toBe("valid");
    expect(validate({ provider: p, field: "market_cap", value: 5e12 }, { history: [1e12, 1.1e12] })).toMatchObject({
      status: "outlier",
      reason: "5000000000000 against 1050000000000 stored for earlier days",
    });
    // A loss after profits is possible against history, not against today's other providers.
    expect(validate({ provider: p, field: "eps_ttm", value: -1.2 }, { history: [2.5] }).status).toBe("valid");
    expect(validate({ provider: p, field: "eps_ttm", value: -1.2 }, { peers: [2.5] }).status).toBe("outlier");
  });

  it("only checks that a field without bounds is a number", () => {
    expect(validate({ provider: p, field: "strong_buy", value: 7 })).toMatchObject({ status: "valid", value: 7 });
  });
});

describe("the delayed provider's figures", () => {
  it("maps quoteSummary fields to snake_case figures with their units", () => {
    const figures = highlightFigures({
      summaryDetail: { trailingPE: 26.17, dividendYield: 0.0131, beta: 1.1 },
      financialData: { debtToEquity: 48.2, profitMargins: 0.24, financialCurrency: "EUR" },
      defaultKeyStatistics: { trailingEps: 39.6 },
    });
    const byField = Object.fromEntries(figures.map((f) => [f.field, f]));
    expect(byField.pe_ratio).toEqual({ field: "pe_ratio", value: 26.17, unit: "ratio" });
    expect(byField.debt_to_equity).toEqual({ field: "debt_to_equity", value: 48.2, unit: "percent" });
    expect(byField.eps_ttm?.value).toBe(39.6);
    // A field of a module the answer carries, without a value, is counted as missing.
    expect(byField.forward_pe).toEqual({ field: "forward_pe", value: null, unit: "ratio" });
    // Fund-only figures are not asked of a company.
    expect(byField.fund_yield).toBeUndefined();
    // Figures of modules the answer does not carry are not counted as missing.
    const fields = highlightFigures({ summaryDetail: { trailingPE: 26.17 } }).map((f) => f.field);
    expect(fields).toContain("dividend_yield");
    expect(fields).not.toContain("roe");
  });

  it("names statement items in snake_case and orders rows newest first", () => {
    expect(snakeCase("totalRevenue")).toBe("total_revenue");
    expect(snakeCase("EBITDA")).toBe("ebitda");
    expect(snakeCase("dilutedEPS")).toBe("diluted_eps");
    const rows = statementRows([
      { TYPE: "FINANCIALS", date: new Date("2024-12-31T00:00:00Z"), periodType: "12M", totalRevenue: 10 },
      { TYPE: "FINANCIALS", date: new Date("2025-12-31T00:00:00Z"), periodType: "12M", totalRevenue: 12, EBIT: 3 },
      { TYPE: "FINANCIALS", date: new Date("2023-12-31T00:00:00Z"), periodType: "12M" },
    ]);
    expect(rows).toEqual([
      { periodEnd: "2025-12-31", items: { total_revenue: 12, ebit: 3 } },
      { periodEnd: "2024-12-31", items: { total_revenue: 10 } },
    ]);
  });
});
