export interface Split {
  date: string;
  numerator: number;
  denominator: number;
}

/**
 * How a split shows in a listing's closes: the one rule the adjusted-close check and the price
 * sanity net both judge stored splits by. Pure.
 */

/** Sessions of daily returns whose spread measures a listing's own volatility. */
const VOLATILITY_SESSIONS = 60;

/** Daily log returns' standard deviation over the sessions before `i` (the step itself left out); 3 % with too few. */
export function volatilityBefore(bars: readonly { close: number }[], i: number): number {
  const rets: number[] = [];
  for (let k = Math.max(1, i - VOLATILITY_SESSIONS); k < i; k++) {
    const a = bars[k - 1]?.close ?? 0;
    const b = bars[k]?.close ?? 0;
    if (a > 0 && b > 0) rets.push(Math.log(b / a));
  }
  if (rets.length < 5) return 0.03;
  const mean = rets.reduce((s, x) => s + x, 0) / rets.length;
  return Math.sqrt(rets.reduce((s, x) => s + (x - mean) ** 2, 0) / (rets.length - 1));
}

/**
 * How far (log) a step may stand from a split's ratio and still be that split: three of the
 * listing's daily spreads (the day's own move), at least 5 %.
 */
export const stepSlack = (sigma: number) => Math.max(0.05, 3 * sigma);

export interface SplitStep {
  /** The split's first session held. */
  date: string;
  /** The close before it over its close. */
  jump: number;
  /** The slack (log) the jump was held to. */
  slack: number;
  /**
   * `applied`: no jump by the ratio (history adjusted); `unapplied`: the closes before it jump by its
   * ratio (not adjusted); `doubled`: they jump the other way (divided twice); `other`: neither.
   */
  verdict: "applied" | "unapplied" | "doubled" | "other";
}

/**
 * How a stored split shows across its first session; null when it cannot be told (a ratio within
 * 20 % of 1, or no bar on either side).
 */
export function splitStep(bars: readonly { date: string; close: number }[], s: Split): SplitStep | null {
  const ratio = s.numerator / s.denominator;
  if (!(ratio > 0) || Math.abs(Math.log(ratio)) < Math.log(1.2)) return null;
  const at = bars.findIndex((b) => b.date >= s.date);
  const prev = at > 0 ? bars[at - 1] : undefined;
  const bar = at > 0 ? bars[at] : undefined;
  if (!prev || !bar || prev.close <= 0 || bar.close <= 0) return null;
  const slack = stepSlack(volatilityBefore(bars, at));
  const jump = prev.close / bar.close;
  const step = Math.log(jump);
  const verdict =
    Math.abs(step - Math.log(ratio)) < slack
      ? "unapplied"
      : Math.abs(step + Math.log(ratio)) < slack
        ? "doubled"
        : Math.abs(step) < slack
          ? "applied"
          : "other";
  return { date: bar.date, jump, slack, verdict };
}
