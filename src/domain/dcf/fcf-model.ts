import type Decimal from "decimal.js";
import { boundedTerminalGrowth, gordonTerminal, type ModelResult, nullResult, project, sum } from "./models";
import { Dec, upsidePct } from "./numbers";

export interface FcfParams {
  /** Average free cash flow of the last three fiscal years (reporting currency). */
  baseCashFlow: Decimal | null;
  growth: Decimal;
  years: number;
  wacc: Decimal;
  terminalGrowth: Decimal;
  netDebt: Decimal | null;
  shares: Decimal | null;
  price: Decimal | null;
  warnings?: string[];
}

/**
 * Free cash flow to the firm: the base grown for N years and discounted at the WACC, plus the Gordon
 * terminal value of year N's flow grown once more (TV = FCF_N x (1 + g) / (WACC - g), discounted N
 * years, never N + 1), minus net debt, per share.
 * @example fcfModel({ baseCashFlow: 600, growth: 0.06, years: 5, wacc: 0.09, terminalGrowth: 0.025, netDebt: 1500, shares: 500 }).value // 18.98...
 */
export function fcfModel(p: FcfParams): ModelResult {
  const warnings = [...(p.warnings ?? [])];
  const terminalGrowth = boundedTerminalGrowth(p.terminalGrowth, p.wacc, warnings);
  const inputs: Record<string, Decimal | null> = {
    base_cash_flow: p.baseCashFlow,
    growth: p.growth,
    terminal_growth: terminalGrowth,
    net_debt: p.netDebt,
    shares_outstanding: p.shares,
  };
  const fail = (reason: string) => nullResult("fcf", p.wacc, "wacc", reason, inputs, warnings);
  if (p.baseCashFlow === null) return fail("no free cash flow stored for the last three fiscal years");
  if (p.baseCashFlow.lte(0))
    return fail(
      "the average free cash flow of the last three fiscal years is not positive: growing it and a Gordon terminal value of it mean nothing",
    );
  if (p.shares === null || p.shares.lte(0)) return fail("shares outstanding unknown");
  let netDebt = p.netDebt;
  if (netDebt === null) {
    warnings.push("net debt unknown: 0 used");
    netDebt = new Dec(0);
    inputs.net_debt = netDebt;
  }
  const { projected, present } = project(p.baseCashFlow, p.growth, p.years, p.wacc);
  const { terminalValue, pvTerminal } = gordonTerminal(projected.at(-1) as Decimal, terminalGrowth, p.wacc, p.years);
  const enterpriseValue = sum(present).plus(pvTerminal);
  const equityValue = enterpriseValue.minus(netDebt);
  inputs.sum_present_values = sum(present);
  inputs.enterprise_value = enterpriseValue;
  inputs.equity_value = equityValue;
  const base = { projected, present, terminalValue, pvTerminal };
  if (equityValue.lte(0))
    return {
      ...fail("net debt exceeds the enterprise value: nothing is left for the shareholders on these assumptions"),
      ...base,
    };
  const value = equityValue.div(p.shares);
  return {
    model: "fcf",
    value,
    reason: null,
    upsidePct: upsidePct(value, p.price),
    discountRate: p.wacc,
    discountBasis: "wacc",
    ...base,
    inputs,
    warnings,
  };
}
