import type Decimal from "decimal.js";
import { boundedTerminalGrowth, gordonTerminal, type ModelResult, nullResult, project, sum } from "./models";
import { upsidePct } from "./numbers";

export interface DdmParams {
  /** Dividends per share of the last twelve months (quote currency); null or 0 for a non-payer. */
  dividend: Decimal | null;
  growth: Decimal;
  years: number;
  costOfEquity: Decimal;
  terminalGrowth: Decimal;
  price: Decimal | null;
  warnings?: string[];
}

/**
 * Two-stage dividend discount: the dividend grown N years at `growth`, discounted at the cost of
 * equity, plus the Gordon value at year N of the next year's dividend (D_N x (1 + g) / (ke - g));
 * with `growth` equal to the terminal growth it is the one-stage Gordon value D_1 / (ke - g).
 * @example ddmModel({ dividend: 2, growth: 0.04, years: 5, costOfEquity: 0.09, terminalGrowth: 0.04 }).value // 41.60
 */
export function ddmModel(p: DdmParams): ModelResult {
  const warnings = [...(p.warnings ?? [])];
  const terminalGrowth = boundedTerminalGrowth(p.terminalGrowth, p.costOfEquity, warnings);
  const inputs: Record<string, Decimal | null> = {
    base_dividend: p.dividend,
    growth: p.growth,
    terminal_growth: terminalGrowth,
  };
  if (p.dividend === null || p.dividend.lte(0))
    return nullResult("ddm", p.costOfEquity, "cost_of_equity", "the company pays no dividend", inputs, warnings);
  const { projected, present } = project(p.dividend, p.growth, p.years, p.costOfEquity);
  const { terminalValue, pvTerminal } = gordonTerminal(
    projected.at(-1) as Decimal,
    terminalGrowth,
    p.costOfEquity,
    p.years,
  );
  inputs.sum_present_values = sum(present);
  const value = sum(present).plus(pvTerminal);
  return {
    model: "ddm",
    value,
    reason: null,
    upsidePct: upsidePct(value, p.price),
    discountRate: p.costOfEquity,
    discountBasis: "cost_of_equity",
    projected,
    present,
    terminalValue,
    pvTerminal,
    inputs,
    warnings,
  };
}
