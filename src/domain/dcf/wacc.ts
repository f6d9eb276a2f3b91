import type Decimal from "decimal.js";
import { clamp, Dec, pct, rate } from "./numbers";

/** Where the risk-free rate came from (spec DCF result `wacc.risk_free_rate_source`). */
export type RiskFreeRateSource = "fred_cached" | "env_fallback" | "client_override";
export type CostOfDebtSource = "calculated" | "default" | "client_override";

/** The spec's bounds and defaults (Valuation rules 4 and 6). */
export const WACC_MIN = new Dec("0.05");
export const WACC_MAX = new Dec("0.20");
export const DEFAULT_BETA = new Dec(1);
export const DEFAULT_TAX_RATE = new Dec("0.25");
/** Cost of debt when it cannot be computed: the risk-free rate plus two points. */
export const DEFAULT_DEBT_SPREAD = new Dec("0.02");
/** A reported beta outside this range is a data problem, not a company (Simply Wall St floors at 0.8). */
const BETA_RANGE = [new Dec("0.3"), new Dec(3)] as const;
/** An effective tax rate outside [0, 35 %] (a refund, a one-off charge) says nothing of the marginal rate. */
const TAX_RANGE = [new Dec(0), new Dec("0.35")] as const;
/** Interest over debt above 20 % is a mismatch of the figures (debt repaid during the year), not a borrowing rate. */
const COST_OF_DEBT_MAX = new Dec("0.20");

export interface WaccInputs {
  riskFreeRate: Decimal;
  riskFreeRateSource: RiskFreeRateSource;
  equityRiskPremium: Decimal;
  /** The stored beta (highlights), null when the provider gave none. */
  beta: Decimal | null;
  /** Of the last fiscal year: interest expense, income tax, income before tax (reporting currency). */
  interestExpense: Decimal | null;
  incomeTax: Decimal | null;
  pretaxIncome: Decimal | null;
  /** Market value of equity and book value of debt (the spec's market-value weights). */
  marketCap: Decimal | null;
  totalDebt: Decimal | null;
}

export interface WaccOverrides {
  beta?: Decimal;
  costOfDebt?: Decimal;
  taxRate?: Decimal;
}

export interface Wacc {
  wacc: Decimal;
  costOfEquity: Decimal;
  costOfDebt: Decimal;
  taxRate: Decimal;
  weightEquity: Decimal;
  weightDebt: Decimal;
  betaUsed: Decimal;
  riskFreeRate: Decimal;
  riskFreeRateSource: RiskFreeRateSource;
  equityRiskPremium: Decimal;
  costOfDebtSource: CostOfDebtSource;
  /** Equity and debt values the weights were taken from. */
  equityValue: Decimal | null;
  debtValue: Decimal;
  warnings: string[];
}

function betaOf(i: WaccInputs, o: WaccOverrides, warnings: string[]): Decimal {
  if (o.beta !== undefined) return o.beta;
  if (i.beta === null) {
    warnings.push("beta unknown: 1 used");
    return DEFAULT_BETA;
  }
  const bounded = clamp(i.beta, ...BETA_RANGE);
  if (!bounded.eq(i.beta)) warnings.push(`beta ${i.beta.toFixed()} outside [0.3, 3]: ${bounded.toFixed()} used`);
  return bounded;
}

function taxRateOf(i: WaccInputs, o: WaccOverrides, warnings: string[]): Decimal {
  if (o.taxRate !== undefined) return o.taxRate;
  if (i.pretaxIncome === null || i.pretaxIncome.lte(0)) {
    warnings.push("tax rate unknown (no positive income before tax): 25 % used");
    return DEFAULT_TAX_RATE;
  }
  if (i.incomeTax === null) {
    warnings.push("tax rate unknown (no income tax stored): 25 % used");
    return DEFAULT_TAX_RATE;
  }
  const effective = rate(i.incomeTax.div(i.pretaxIncome));
  const bounded = clamp(effective, ...TAX_RANGE);
  if (!bounded.eq(effective)) warnings.push(`effective tax rate ${pct(effective)} bounded to ${pct(bounded)}`);
  return bounded;
}

function costOfDebtOf(
  i: WaccInputs,
  o: WaccOverrides,
  warnings: string[],
): { costOfDebt: Decimal; source: CostOfDebtSource } {
  if (o.costOfDebt !== undefined) return { costOfDebt: o.costOfDebt, source: "client_override" };
  if (i.interestExpense !== null && !i.interestExpense.isZero() && i.totalDebt?.gt(0)) {
    // Providers sign interest expense either way; the cost is its size.
    const computed = rate(i.interestExpense.abs().div(i.totalDebt));
    if (computed.gt(COST_OF_DEBT_MAX)) {
      warnings.push(`interest over debt is ${pct(computed)}: cost of debt bounded to ${pct(COST_OF_DEBT_MAX)}`);
      return { costOfDebt: COST_OF_DEBT_MAX, source: "calculated" };
    }
    return { costOfDebt: computed, source: "calculated" };
  }
  const fallback = rate(i.riskFreeRate.plus(DEFAULT_DEBT_SPREAD));
  warnings.push(
    `cost of debt unknown (no interest expense or debt): risk-free rate + 2 points (${pct(fallback)}) used`,
  );
  return { costOfDebt: fallback, source: "default" };
}

/**
 * The weighted average cost of capital: CAPM cost of equity (risk-free + beta x ERP), cost of debt
 * from interest over debt, tax from tax over income before tax, weights from market capitalisation
 * and total debt, the result kept within 5-20 %. Every rate is rounded to RATE_PLACES as it is
 * made, so the figures shown recompute exactly: wacc = we x ke + wd x kd x (1 - t) (before the bounds).
 * @example computeWacc({ riskFreeRate: 0.04, beta: 1.2, equityRiskPremium: 0.05, ... }).wacc // 0.09
 */
export function computeWacc(i: WaccInputs, o: WaccOverrides = {}): Wacc {
  const warnings: string[] = [];
  const riskFreeRate = rate(i.riskFreeRate);
  const betaUsed = rate(betaOf(i, o, warnings));
  const equityRiskPremium = rate(i.equityRiskPremium);
  const costOfEquity = rate(riskFreeRate.plus(betaUsed.times(equityRiskPremium)));
  const taxRate = rate(taxRateOf(i, o, warnings));
  const debt = costOfDebtOf(i, o, warnings);
  const costOfDebt = rate(debt.costOfDebt);

  let debtValue = i.totalDebt;
  if (debtValue === null) {
    warnings.push("total debt unknown: weighted as 0");
    debtValue = new Dec(0);
  }
  let weightEquity: Decimal;
  if (i.marketCap === null || i.marketCap.lte(0)) {
    warnings.push("market capitalisation unknown: the cost of equity is the discount rate");
    weightEquity = new Dec(1);
  } else {
    weightEquity = rate(i.marketCap.div(i.marketCap.plus(Dec.max(debtValue, 0))));
  }
  const weightDebt = new Dec(1).minus(weightEquity);
  const raw = rate(
    weightEquity.times(costOfEquity).plus(weightDebt.times(costOfDebt).times(new Dec(1).minus(taxRate))),
  );
  const wacc = clamp(raw, WACC_MIN, WACC_MAX);
  if (!wacc.eq(raw)) warnings.push(`WACC ${pct(raw)} kept within 5-20 %: ${pct(wacc)} used`);
  return {
    wacc,
    costOfEquity,
    costOfDebt,
    taxRate,
    weightEquity,
    weightDebt,
    betaUsed,
    riskFreeRate,
    riskFreeRateSource: i.riskFreeRateSource,
    equityRiskPremium,
    costOfDebtSource: debt.source,
    equityValue: i.marketCap,
    debtValue,
    warnings,
  };
}
