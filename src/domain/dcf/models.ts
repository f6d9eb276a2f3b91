import type Decimal from "decimal.js";
import { Dec, pct, rate } from "./numbers";

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

export const sum = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), new Dec(0));

/**
 * The Gordon terminal value at year N of year N's flow grown once more, and its value today:
 * TV = last x (1 + g) / (rate - g), discounted N years (never N + 1).
 */
export function gordonTerminal(last: Decimal, g: Decimal, rate: Decimal, years: number) {
  const terminalValue = last.times(g.plus(1)).div(rate.minus(g));
  return { terminalValue, pvTerminal: terminalValue.div(rate.plus(1).pow(years)) };
}

export function nullResult(
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
