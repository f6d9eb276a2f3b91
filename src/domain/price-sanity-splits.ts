import type { Bar } from "./bars";
import type { Split } from "./corporate-actions";
import { type Finding, median, round } from "./price-sanity";
import { splitStep, stepSlack, volatilityBefore } from "./split-steps";

/** The price sanity net's split checks: (a) a split missing or not applied, (b) a split applied twice. */

/** Split ratios a jump with no stored split is matched against (forward and, as their inverses, reverse). */
const SPLIT_RATIOS = [2, 3, 4, 5, 6, 7, 8, 10, 15, 20, 25, 30, 40, 50];
/** The least step (log) a split could show: 2:1 less a day's move of 20 %. */
const MIN_SPLIT_STEP = Math.log(2) - 0.2;
/** How far (log) the median volume's step may stand from the ratio: a factor of 1.4 either way. */
const VOLUME_SLACK = 0.35;
/** Sessions each side whose volumes are compared across a jump. */
const VOLUME_SESSIONS = 10;

/** The split ratio a jump of the closes (before / after) matches, with the listing's own volatility as slack; null for none. */
function matchingRatio(jump: number, sigma: number): number | null {
  const size = Math.log(jump);
  // A split's jump stands far out of the listing's own moves; a fall within ten of its days' spreads is a market.
  if (Math.abs(size) < 10 * sigma) return null;
  for (const r of SPLIT_RATIOS)
    for (const ratio of [r, 1 / r]) if (Math.abs(size - Math.log(ratio)) < stepSlack(sigma)) return ratio;
  return null;
}

/** The median volume after a jump over the one before it; null when either side traded nothing. */
function volumeStep(bars: readonly Bar[], i: number): number | null {
  const before = median(bars.slice(Math.max(0, i - VOLUME_SESSIONS), i).map((b) => b.volume));
  const after = median(bars.slice(i, i + VOLUME_SESSIONS).map((b) => b.volume));
  return before && after ? after / before : null;
}

/**
 * (a) A split missing from history, where no split is stored: the close jumps by a whole split
 * ratio (2:1 to 50:1, or the reverse) beyond ten times the listing's daily spread of the 60
 * sessions before, within three spreads (at least 5 %) of it, the open gaps alike, and the median
 * volume of the ten sessions after stands to the ten before as the ratio does (within a factor of
 * 1.4), as a share count does when each share is cut in `ratio`. A crash moves the price and
 * swells the volume, seldom by exactly the ratio; since it can, the finding is a warning, never a
 * repair.
 */
export function missingSplits(
  bars: readonly Bar[],
  splitDates: ReadonlySet<string>,
  skip: ReadonlySet<string>,
): Finding[] {
  const out: Finding[] = [];
  for (let i = 1; i < bars.length; i++) {
    const prev = bars[i - 1] as Bar;
    const bar = bars[i] as Bar;
    if (skip.has(bar.date) || skip.has(prev.date) || prev.close <= 0 || bar.close <= 0 || bar.open <= 0) continue;
    const jump = prev.close / bar.close;
    // Far from any ratio (the smallest is 2:1, a day's move aside): no split, and nothing more to measure.
    if (Math.abs(Math.log(jump)) < MIN_SPLIT_STEP) continue;
    if ([...splitDates].some((d) => d > prev.date && d <= bar.date)) continue;
    const sigma = volatilityBefore(bars, i);
    const ratio = matchingRatio(jump, sigma);
    if (ratio === null) continue;
    if (Math.abs(Math.log(prev.close / bar.open) - Math.log(ratio)) > stepSlack(sigma)) continue;
    const volume = volumeStep(bars, i);
    if (volume === null || Math.abs(Math.log(volume) - Math.log(ratio)) > VOLUME_SLACK) continue;
    out.push({
      date: bar.date,
      kind: "split_missing",
      evidence: { ratio: round(ratio), jump: round(jump), volume_step: round(volume, 4), event: "none" },
    });
  }
  return out;
}

/** (a) and (b): a stored split not applied to the bars before it, or applied twice (domain/split-steps). */
export function splitsMisapplied(bars: readonly Bar[], splits: readonly Split[]): Finding[] {
  return splits.flatMap((s): Finding[] => {
    const step = splitStep(bars, s);
    if (step?.verdict !== "unapplied" && step?.verdict !== "doubled") return [];
    return [
      {
        date: step.date,
        kind: step.verdict === "doubled" ? "split_doubled" : "split_unapplied",
        evidence: {
          ratio: round(s.numerator / s.denominator),
          jump: round(step.jump),
          event: `${s.numerator}:${s.denominator}`,
        },
      },
    ];
  });
}
