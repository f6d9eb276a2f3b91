import { dayBefore, earlier } from "./ingest-plan";
import { relativeError, type StoredPrecision } from "./provider-precision";
import { type Split, splitStep } from "./split-steps";

export type { Split };

/**
 * Dividends and splits, and the check that a listing's stored adjusted closes agree with them.
 * Pure: the rows come from the repositories.
 *
 * The delayed provider's closes are split-adjusted and its adjusted closes are, on top, adjusted
 * for dividends: each close before an ex-date is scaled by (1 - amount / the close before the
 * ex-date). So between two consecutive stored sessions the ratio adjusted/close may change only
 * across an ex-date, by exactly that factor; and across a split date the close does not jump by
 * the split's ratio (had the bars before it not been adjusted, it would).
 */

export interface Dividend {
  /** The ex-dividend date (the session the provider's event is stamped with). */
  date: string;
  amount: number;
}

export interface AdjustableBar {
  date: string;
  close: number;
  adjClose: number;
}

/**
 * How far an observed step of the adjusted/close ratio may stand from the one the stored dividends
 * imply (relative), from the precision of the four prices it is computed from: each stands within
 * its relative error of the provider's figure, so the step within their sum; twice that, since the
 * provider computed its adjusted closes from closes it had rounded once already. At full precision
 * that is under 1e-6 (a quarterly dividend of 0.1% is a thousand times outside it); for 2-decimal
 * prices near 13 it is 3e-3, which no tighter constant could honour.
 */
export function stepTolerance(prev: AdjustableBar, bar: AdjustableBar, precision: StoredPrecision): number {
  const e = (x: number) => relativeError(x, precision);
  return 2 * (e(prev.close) + e(prev.adjClose) + e(bar.close) + e(bar.adjClose));
}

/** The step tolerance at full precision of a typical share (closes and adjusted closes near 100): what /health/stats states. */
export const FULL_PRECISION_TOLERANCE = stepTolerance(
  { date: "", close: 100, adjClose: 100 },
  { date: "", close: 100, adjClose: 100 },
  "full",
);

/** The share of a dividend step's own size its tolerance widens by (the close it was computed from may be a session apart). */
const ACROSS_EX_DATE = 0.1;

/**
 * `dividend`: a step across an ex-date other than its dividend implies; `unexplained`: a step where
 * no event is stored; `split`: closes that jump by a stored split's ratio (history not adjusted).
 */
export const MISMATCH_KINDS = ["dividend", "split", "unexplained"] as const;
export type MismatchKind = (typeof MISMATCH_KINDS)[number];

export interface AdjustmentMismatch {
  /** The session where the adjusted closes disagree with the stored events. */
  date: string;
  kind: MismatchKind;
  /** The step the events imply (dividends) or the split's ratio (splits). */
  expected: number;
  /** The step the stored bars show. */
  observed: number;
  /** The relative tolerance the step was held to (absent from checks stored before it was kept). */
  tolerance?: number;
}

/** "4:1" of a split, as the provider writes it. */
export const splitRatio = (s: Split) => `${s.numerator}:${s.denominator}`;

/**
 * Where a listing's stored adjusted closes disagree with its stored dividends and splits, oldest
 * first. `bars` in date order; bars without an adjusted close distinct from the close are read as
 * they are (a source without adjustments shows a ratio of 1 throughout, which disagrees with any
 * dividend between its bars).
 */
export function adjustmentMismatches(
  bars: readonly AdjustableBar[],
  dividends: readonly Dividend[],
  splits: readonly Split[],
  precision: StoredPrecision = "full",
): AdjustmentMismatch[] {
  const out: AdjustmentMismatch[] = [];
  const byDate = new Map<string, number>();
  for (const d of dividends) byDate.set(d.date, (byDate.get(d.date) ?? 0) + d.amount);
  const sortedDividends = [...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  let next = 0;
  for (let i = 1; i < bars.length; i++) {
    const prev = bars[i - 1];
    const bar = bars[i];
    if (!prev || !bar || prev.close <= 0 || bar.close <= 0) continue;
    // Dividends whose ex-date falls after the previous session, up to this one.
    let expected = 1;
    let exDates = 0;
    while (next < sortedDividends.length && (sortedDividends[next]?.[0] ?? "") <= bar.date) {
      const [date, amount] = sortedDividends[next] as [string, number];
      if (date > prev.date) {
        expected *= 1 - amount / prev.close;
        exDates++;
      }
      next++;
    }
    const observed = prev.adjClose / prev.close / (bar.adjClose / bar.close);
    // The provider divides by the close of the session before the ex-date, which may be one the
    // service does not hold (a slot the provider sent empty): a step across an ex-date is allowed
    // a tenth of the dividends' own factor besides. A dividend missing or wrong by far still shows.
    const tolerance = stepTolerance(prev, bar, precision) + Math.abs(1 - expected) * ACROSS_EX_DATE;
    if (Math.abs(observed / expected - 1) > tolerance)
      out.push({
        date: bar.date,
        kind: exDates > 0 ? "dividend" : "unexplained",
        expected: round(expected),
        observed: round(observed),
        tolerance: round(tolerance),
      });
  }
  for (const s of splits) {
    const step = splitStep(bars, s);
    if (step?.verdict === "unapplied")
      out.push({
        date: step.date,
        kind: "split",
        expected: 1,
        observed: round(step.jump),
        tolerance: round(step.slack),
      });
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

const round = (x: number) => Math.round(x * 1e8) / 1e8;

/**
 * Dividends counted by the year of their ex-date, for the fundamentals document's
 * `NumberDividendsByYear`; with `storedFrom` (the first stored session), a year the stored prices
 * cover only in part is left out (ten years back from late November hold one dividend of that year).
 */
export function dividendsByYear(dividends: readonly Dividend[], storedFrom?: string): Record<string, number> {
  const out: Record<string, number> = {};
  // A year is whole from its first week's sessions on (1 January is a holiday everywhere).
  const firstWhole = storedFrom && storedFrom.slice(5) > "01-07" ? String(Number(storedFrom.slice(0, 4)) + 1) : "";
  for (const d of dividends) {
    const y = d.date.slice(0, 4);
    if (y < firstWhole) continue;
    out[y] = (out[y] ?? 0) + 1;
  }
  return out;
}

/**
 * The stored bars whose adjusted closes predate events just stored: from the first stored bar to
 * the session before the newest new event (the provider adjusts every close before an ex-date or
 * split). Null when no new event falls after the first stored bar.
 */
export function readjustmentRange(
  stored: { first: string; last: string } | null,
  newEventDates: readonly string[],
): { from: string; to: string } | null {
  if (!stored) return null;
  const newest = newEventDates
    .filter((d) => d > stored.first)
    .sort()
    .at(-1);
  if (!newest) return null;
  const before = dayBefore(newest);
  return { from: stored.first, to: earlier(before, stored.last) };
}
