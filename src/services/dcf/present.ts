import type Decimal from "decimal.js";
import { solvencyOf } from "../../domain/dcf/inputs";
import { MODEL_TITLES, type ModelName, type ModelResult } from "../../domain/dcf/models";
import { MONEY_PLACES, PERCENT_PLACES, RATE_PLACES, show } from "../../domain/dcf/numbers";
import type { Valuation } from "../../domain/dcf/valuation";
import type { Wacc } from "../../domain/dcf/wacc";
import type { RiskFreeChoice } from "./risk-free";

/** Inputs that are rates (shown with the rate places); the others are amounts, per-share figures or multiples. */
const RATE_INPUTS = new Set(["growth", "terminal_growth", "payout_ratio"]);

const money = (x: Decimal | null) => show(x, MONEY_PLACES);
const ratio = (x: Decimal | null) => show(x, RATE_PLACES);
const percent = (x: Decimal | null) => show(x, PERCENT_PLACES);

export function presentWacc(w: Wacc, rf: RiskFreeChoice) {
  return {
    wacc: ratio(w.wacc) as string,
    cost_of_equity: ratio(w.costOfEquity) as string,
    cost_of_debt: ratio(w.costOfDebt) as string,
    tax_rate: ratio(w.taxRate) as string,
    weight_equity: ratio(w.weightEquity) as string,
    weight_debt: ratio(w.weightDebt) as string,
    beta_used: ratio(w.betaUsed) as string,
    risk_free_rate: ratio(w.riskFreeRate) as string,
    equity_risk_premium: ratio(w.equityRiskPremium) as string,
    cost_of_debt_source: w.costOfDebtSource,
    risk_free_rate_source: w.riskFreeRateSource,
    // Which rate: the caller's has none of these; the setting's neither.
    risk_free_rate_series: w.riskFreeRateSource === "fred_cached" ? rf.series : null,
    risk_free_rate_currency: w.riskFreeRateSource === "fred_cached" ? rf.currency : null,
    risk_free_rate_date: w.riskFreeRateSource === "fred_cached" ? rf.observed : null,
    equity_value: money(w.equityValue),
    debt_value: money(w.debtValue) as string,
    warnings: w.warnings,
  };
}
export type WaccOut = ReturnType<typeof presentWacc>;

/** One model as the answer shows it: every figure a decimal string, with what it was computed from. */
export function presentModel(r: ModelResult, v: Valuation) {
  const inputs: Record<string, string | null> = {};
  for (const [k, x] of Object.entries(r.inputs)) inputs[k] = RATE_INPUTS.has(k) ? ratio(x) : money(x);
  return {
    model_name: MODEL_TITLES[r.model],
    intrinsic_value_per_share: money(r.value),
    upside_pct: percent(r.upsidePct),
    terminal_value: money(r.terminalValue),
    pv_terminal: money(r.pvTerminal),
    projected_values: r.projected.map((x) => money(x) as string),
    present_values: r.present.map((x) => money(x) as string),
    discount_rate: ratio(r.discountRate) as string,
    discount_rate_basis: r.discountBasis,
    growth_basis: v.growthBasis[r.model] ?? null,
    inputs,
    ...(r.model === "fcf"
      ? {
          base_years: v.fcfYears.map((y) => ({
            period_end: y.period_end,
            free_cash_flow: money(y.free_cash_flow) as string,
          })),
        }
      : {}),
    reason: r.reason,
    warnings: r.warnings,
  };
}
export type ModelOut = ReturnType<typeof presentModel>;

export function presentModels(results: readonly ModelResult[], v: Valuation): Partial<Record<ModelName, ModelOut>> {
  return Object.fromEntries(results.map((r) => [r.model, presentModel(r, v)]));
}

export function presentSolvency(v: Valuation) {
  const s = solvencyOf(v.company);
  return {
    debt_to_equity_ratio: ratio(s.debt_to_equity_ratio),
    net_debt_to_ebitda: ratio(s.net_debt_to_ebitda),
    interest_coverage_ratio: ratio(s.interest_coverage_ratio),
    total_debt: money(s.total_debt),
    cash: money(s.cash),
    net_debt: money(s.net_debt),
    book_equity: money(s.book_equity),
    ebitda: money(s.ebitda),
    notes: s.notes,
  };
}

export { money, percent, ratio };
