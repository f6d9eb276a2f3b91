import type Decimal from "decimal.js";
import { clamp, Dec, pct, rate, upsidePct } from "./numbers";

export const MODELS = ["fcf", "eps", "ddm"] as const;
export type ModelName = (typeof MODELS)[number];

export const MODEL_TITLES: Record<ModelName, string> = {
  fcf: "Discounted free cash flow (Gordon terminal value)",
  eps: "EPS growth and terminal P/E",
  ddm: "Dividend discount (two-stage Gordon)",
};

/** Spec: Valuation (DCF) default consensus weights. */
export const DEFAULT_WEIGHTS: Record<ModelName, number> = { fcf: 0.5, eps: 0.3, ddm: 0.2 };

/** Terminal P/E of the eps model: the company's P/E bounded to [10, 30], 15 when unknown. */
export const TERMINAL_PE_RANGE = [new Dec(10), new Dec(30)] as const;
export const DEFAULT_TERMINAL_PE = new Dec(15);
/** A terminal growth closer than this to the discount rate is capped at rate - this (rule 7). */
export const TERMINAL_GAP = new Dec("0.005");

/**
 * One model's valuation. `projected` and `present` are per year 1..N; `present[t] = projected[t] /
 * (1 + discountRate)^t`; `inputs` names every other figure the value was computed from, so that a
 * reader can recompute it. A value that would mean nothing (a negative base, EPS <= 0, no dividend,
 * debt above the enterprise value) is null with a `reason`.
 */
export interface ModelResult {
  model: ModelName;
  value: Decimal | null;
  reason: string | null;
  upsidePct: Decimal | null;
  discountRate: Decimal;
  discountBasis: "wacc" | "cost_of_equity";
  projected: Decimal[];
  present: Decimal[];
  terminalValue: Decimal | null;
  pvTerminal: Decimal | null;
  inputs: Record<string, Decimal | null>;
  warnings: string[];
}

/**
 * The terminal growth a model may use with `discountRate`: the requested one, or `discountRate -
 * 0.5 %` when it comes closer than that (a Gordon value explodes as g nears the rate).
 */
export function boundedTerminalGrowth(requested: Decimal, discountRate: Decimal, warnings: string[]): Decimal {
  const ceiling = rate(discountRate.minus(TERMINAL_GAP));
  if (requested.lte(ceiling)) return requested;
  warnings.push(
    `terminal growth ${pct(requested)} is within half a point of the discount rate ${pct(discountRate)}: capped at ${pct(ceiling)}`,
  );
  return ceiling;
}

/** base x (1 + g)^t for t = 1..years, and each discounted t years at `discountRate`. */
export function project(base: Decimal, growth: Decimal, years: number, discountRate: Decimal) {
  const projected: Decimal[] = [];
  const present: Decimal[] = [];
  for (let t = 1; t <= years; t++) {
    const v = base.times(growth.plus(1).pow(t));
    projected.push(v);
    present.push(v.div(discountRate.plus(1).pow(t)));
  }
  return { projected, present };
}

const sum = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), new Dec(0));

/**
 * The Gordon terminal value at year N of year N's flow grown once more, and its value today:
 * TV = last x (1 + g) / (rate - g), discounted N years (never N + 1).
 */
function gordonTerminal(last: Decimal, g: Decimal, rate: Decimal, years: number) {
  const terminalValue = last.times(g.plus(1)).div(rate.minus(g));
  return { terminalValue, pvTerminal: terminalValue.div(rate.plus(1).pow(years)) };
}

function nullResult(
  model: ModelName,
  discountRate: Decimal,
  discountBasis: ModelResult["discountBasis"],
  reason: string,
  inputs: Record<string, Decimal | null>,
  warnings: string[],
): ModelResult {
  return {
    model,
    value: null,
    reason,
    upsidePct: null,
    discountRate,
    discountBasis,
    projected: [],
    present: [],
    terminalValue: null,
    pvTerminal: null,
    inputs,
    warnings,
  };
}

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

/**
 * The weighted mean of the models that have a value, their weights renormalised over them (spec
 * rule 1: fcf and eps alone weigh 50/30 -> 62.5/37.5). Null when no model has a value or every
 * weight of those is 0.
 */
export function consensusOf(
  results: readonly ModelResult[],
  weights: Partial<Record<ModelName, number>> = DEFAULT_WEIGHTS,
): { value: Decimal | null; weights: Partial<Record<ModelName, Decimal>> } {
  const valued = results.filter((r) => r.value !== null);
  const raw = valued.map((r) => new Dec(weights[r.model] ?? DEFAULT_WEIGHTS[r.model]));
  const total = sum(raw);
  if (valued.length === 0 || total.isZero()) return { value: null, weights: {} };
  const normalised: Partial<Record<ModelName, Decimal>> = {};
  let value = new Dec(0);
  valued.forEach((r, i) => {
    const w = (raw[i] as Decimal).div(total);
    normalised[r.model] = w;
    value = value.plus(w.times(r.value as Decimal));
  });
  return { value, weights: normalised };
}
