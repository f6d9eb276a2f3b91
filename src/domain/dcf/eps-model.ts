import type Decimal from "decimal.js";
import { DEFAULT_TERMINAL_PE, type ModelResult, nullResult, project, sum, TERMINAL_PE_RANGE } from "./models";
import { clamp, upsidePct } from "./numbers";

export interface EpsParams {
  /** Trailing diluted EPS (quote currency). */
  eps: Decimal | null;
  growth: Decimal;
  years: number;
  costOfEquity: Decimal;
  /** The company's trailing P/E, null when unknown. */
  peRatio: Decimal | null;
  /** Share of earnings paid out in the N years (0 for a company that pays none). */
  payoutRatio: Decimal;
  price: Decimal | null;
  warnings?: string[];
}

/**
 * EPS grown N years, times a terminal P/E (the company's bounded to [10, 30], 15 when unknown),
 * discounted N years at the cost of equity, plus the present value of the dividends paid meanwhile
 * (payout x EPS each year): value = pv_terminal + payout x sum(present).
 * @example epsModel({ eps: 5, growth: 0.12, years: 5, costOfEquity: 0.1, peRatio: 35, payoutRatio: 0 }).value // 164.14...
 */
export function epsModel(p: EpsParams): ModelResult {
  const warnings = [...(p.warnings ?? [])];
  let terminalPe: Decimal;
  if (p.peRatio === null || p.peRatio.lte(0)) {
    terminalPe = DEFAULT_TERMINAL_PE;
    warnings.push("P/E unknown: terminal P/E 15 used");
  } else {
    terminalPe = clamp(p.peRatio, ...TERMINAL_PE_RANGE);
    if (!terminalPe.eq(p.peRatio))
      warnings.push(`P/E ${p.peRatio.toFixed()} bounded to [10, 30]: terminal P/E ${terminalPe.toFixed()} used`);
  }
  const inputs: Record<string, Decimal | null> = {
    base_eps: p.eps,
    growth: p.growth,
    terminal_pe: terminalPe,
    payout_ratio: p.payoutRatio,
  };
  if (p.eps === null) return nullResult("eps", p.costOfEquity, "cost_of_equity", "EPS unknown", inputs, warnings);
  if (p.eps.lte(0))
    return nullResult(
      "eps",
      p.costOfEquity,
      "cost_of_equity",
      "EPS is not positive: a P/E of losses means nothing",
      inputs,
      warnings,
    );
  const { projected, present } = project(p.eps, p.growth, p.years, p.costOfEquity);
  const terminalValue = (projected.at(-1) as Decimal).times(terminalPe);
  const pvTerminal = terminalValue.div(p.costOfEquity.plus(1).pow(p.years));
  const pvDividends = sum(present).times(p.payoutRatio);
  inputs.pv_dividends = pvDividends;
  const value = pvTerminal.plus(pvDividends);
  return {
    model: "eps",
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
