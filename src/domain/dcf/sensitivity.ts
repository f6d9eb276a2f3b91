import type Decimal from "decimal.js";
import { type ModelResult, TERMINAL_GAP } from "./models";
import { rate } from "./numbers";

/** The most rows or columns a grid may have (a 25 x 25 grid is 625 valuations). */
export const MAX_GRID_STEPS = 25;

/**
 * min, min + step, ... up to max inclusive, each rounded to the rate places; null when the range
 * is empty, the step not positive, or it would make more than MAX_GRID_STEPS values.
 * @example gridSteps(0.06, 0.16, 0.02).map(String) // ["0.06","0.08","0.1","0.12","0.14","0.16"]
 */
export function gridSteps(min: Decimal, max: Decimal, step: Decimal): Decimal[] | null {
  if (step.lte(0) || max.lt(min)) return null;
  const count = max.minus(min).div(step).floor().plus(1);
  if (count.gt(MAX_GRID_STEPS)) return null;
  return Array.from({ length: count.toNumber() }, (_, i) => rate(min.plus(step.times(i))));
}

export interface GridCell {
  wacc: Decimal;
  growth: Decimal;
  value: Decimal | null;
  upsidePct: Decimal | null;
  /** Why the cell has no value (growth at or above the rate, or the model's own reason). */
  reason: string | null;
}

/**
 * The model valued at each discount rate (rows) and terminal growth (columns). A cell whose growth
 * reaches its rate has no Gordon value, and one within half a point of it would be valued at a
 * capped growth, not its column's: both are null, with the reason, and the model is not asked.
 */
export function sensitivityGrid(
  rates: readonly Decimal[],
  growths: readonly Decimal[],
  valueAt: (discountRate: Decimal, terminalGrowth: Decimal) => ModelResult,
): GridCell[][] {
  return rates.map((w) =>
    growths.map((g) => {
      if (g.gte(w))
        return { wacc: w, growth: g, value: null, upsidePct: null, reason: "growth at or above the discount rate" };
      if (g.gt(w.minus(TERMINAL_GAP)))
        return {
          wacc: w,
          growth: g,
          value: null,
          upsidePct: null,
          reason: "growth within half a point of the discount rate (it would be capped, not this column's)",
        };
      const r = valueAt(w, g);
      return { wacc: w, growth: g, value: r.value, upsidePct: r.upsidePct, reason: r.reason };
    }),
  );
}
