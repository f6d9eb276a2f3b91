import type { Bar } from "./bars";
import type { Split } from "./corporate-actions";
import { addDays } from "./instants";
import { splitStep, stepSlack, volatilityBefore } from "./split-steps";
import { CALENDAR_YEARS, closedReason, closingTime, type Venue } from "./venues";

/**
 * The price sanity net: the delayed provider's known glitches, found in a listing's stored daily
 * bars (users of the provider report each; yfinance keeps a "price repair" for them). Pure: the
 * bars, the splits and the venue's calendar are inputs. It finds and never changes: what can be
 * repaired safely is repaired by `repairBars`, in an answer that asked for it.
 */

/**
 * What the net finds, a kind each:
 * - `split_missing` (a): closes jump by a split's ratio, with no split stored there (see `missingSplits` for the rule);
 * - `split_unapplied` (a): a stored split whose ratio shows as a jump of the closes (history not divided by it);
 * - `split_doubled` (b): across a stored split the closes jump the other way by its ratio (history divided twice);
 * - `unit_100x` (c): a bar a hundred times off its neighbours (a London line's pence and pounds mixed);
 * - `closed_day_bar` (d): a bar dated on a day the venue held no session (a weekend, a holiday of a known year);
 * - `duplicate_session` (e): a session that repeats the one before it, prices and all, with no volume;
 * - `missing_session` (f): a trading day of the venue (a known year) inside the stored span with no bar;
 * - `ohlc_inconsistent` (g): high below the open, close or low, or low above them;
 * - `non_positive` (h): a price at or below zero, or a negative volume;
 * - `period_adjusted` (i): the provider's weekly or monthly closes adjusted for dividends (found by the canary);
 * - `capital_gains_in_dividend` (j): a fund's dividend that includes a capital gain the provider also sends apart (found at ingestion).
 */
export const FINDING_KINDS = [
  "split_missing",
  "split_unapplied",
  "split_doubled",
  "unit_100x",
  "closed_day_bar",
  "duplicate_session",
  "missing_session",
  "ohlc_inconsistent",
  "non_positive",
  "period_adjusted",
  "capital_gains_in_dividend",
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export type FindingEvidence = Record<string, number | string | boolean | null>;

export interface Finding {
  date: string;
  kind: FindingKind;
  evidence: FindingEvidence;
}

/** The kinds found from the stored bars alone (all but the canary's and the ingestion's events'): each check of a listing replaces these. */
export const BAR_KINDS: readonly FindingKind[] = FINDING_KINDS.filter(
  (k) => k !== "period_adjusted" && k !== "capital_gains_in_dividend",
);

/** Split ratios a jump with no stored split is matched against (forward and, as their inverses, reverse). */
const SPLIT_RATIOS = [2, 3, 4, 5, 6, 7, 8, 10, 15, 20, 25, 30, 40, 50];
/** The least step (log) a split could show: 2:1 less a day's move of 20 %. */
const MIN_SPLIT_STEP = Math.log(2) - 0.2;
/** How far (log) the median volume's step may stand from the ratio: a factor of 1.4 either way. */
const VOLUME_SLACK = 0.35;
/** Sessions each side whose volumes are compared across a jump. */
const VOLUME_SESSIONS = 10;
/** Neighbours each side a bar is compared with for a unit glitch. */
const UNIT_NEIGHBOURS = 5;
/** Neighbours each side a bar is first compared with (a glitch of a few days in a row still stands out at its own). */
const UNIT_PREFILTER = 3;
/** The prices of a bar a unit glitch may strike, each found and repaired alone. */
export const UNIT_FIELDS = ["open", "high", "low", "close", "adjClose"] as const;
/** How far (in log10) from exactly 100 times a unit glitch may be: a day's move on top (70 to 141 times). */
const UNIT_LOG_SLACK = 0.15;

const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const round = (x: number, digits = 6) => Number(x.toPrecision(digits));

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
function missingSplits(bars: readonly Bar[], splitDates: ReadonlySet<string>, skip: ReadonlySet<string>): Finding[] {
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
function splitsMisapplied(bars: readonly Bar[], splits: readonly Split[]): Finding[] {
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

/**
 * (c) A bar a hundred times above or below the median close of its five neighbours each side
 * (within 70 to 141 times), field by field: the provider's pence and pounds mixed on one day.
 */
function unitGlitches(bars: readonly Bar[]): Finding[] {
  const out: Finding[] = [];
  const far = (x: number, y: number | undefined) =>
    y !== undefined && y > 0 && x > 0 && Math.abs(Math.log10(x / y)) > 2 - UNIT_LOG_SLACK;
  for (let i = 0; i < bars.length; i++) {
    const bar = bars[i] as Bar;
    // A bar a hundred times off stands that far from a close within three sessions (the glitch may
    // last a few days): the others need no median.
    const near: number[] = [];
    for (let k = 1; k <= UNIT_PREFILTER; k++) {
      const before = bars[i - k]?.close;
      const after = bars[i + k]?.close;
      if (before !== undefined) near.push(before);
      if (after !== undefined) near.push(after);
    }
    if (!UNIT_FIELDS.some((f) => near.some((c) => far(bar[f], c)))) continue;
    const around = [
      ...bars.slice(Math.max(0, i - UNIT_NEIGHBOURS), i),
      ...bars.slice(i + 1, i + 1 + UNIT_NEIGHBOURS),
    ].map((b) => b.close);
    const level = median(around.filter((x) => x > 0));
    if (level === null || around.length < 2) continue;
    const fields: string[] = [];
    let factor = 0;
    for (const field of UNIT_FIELDS) {
      const x = bar[field];
      if (!(x > 0)) continue;
      const off = Math.log10(x / level);
      if (Math.abs(Math.abs(off) - 2) < UNIT_LOG_SLACK) {
        fields.push(field);
        factor = off > 0 ? 100 : 0.01;
      }
    }
    if (fields.length)
      out.push({
        date: bar.date,
        kind: "unit_100x",
        evidence: { factor, fields: fields.join(","), close: bar.close, neighbours_median: round(level) },
      });
  }
  return out;
}

/** (g) and (h): prices that contradict each other or cannot be. */
function impossibleBars(bars: readonly Bar[]): Finding[] {
  const out: Finding[] = [];
  for (const b of bars) {
    const bad = (["open", "high", "low", "close"] as const).filter((f) => !(b[f] > 0));
    if (bad.length || b.volume < 0) {
      out.push({
        date: b.date,
        kind: "non_positive",
        evidence: { fields: [...bad, ...(b.volume < 0 ? ["volume"] : [])].join(","), low: b.low, volume: b.volume },
      });
      continue;
    }
    // Within two float32 steps: the provider's own rounding never makes a contradiction.
    const slack = 1 + 2 ** -22;
    if (b.high * slack < Math.max(b.open, b.close, b.low) || b.low > Math.min(b.open, b.close, b.high) * slack)
      out.push({
        date: b.date,
        kind: "ohlc_inconsistent",
        evidence: { open: b.open, high: b.high, low: b.low, close: b.close },
      });
  }
  return out;
}

/**
 * (e) A session whose open, high, low and close all repeat the session before and whose volume is
 * zero, the session before not being flat itself (a share nobody traded repeats one price, flat).
 */
function duplicatedSessions(bars: readonly Bar[]): Finding[] {
  const out: Finding[] = [];
  for (let i = 1; i < bars.length; i++) {
    const prev = bars[i - 1] as Bar;
    const b = bars[i] as Bar;
    const flat = prev.open === prev.close && prev.high === prev.low && prev.high === prev.close;
    if (
      b.volume === 0 &&
      !flat &&
      b.open === prev.open &&
      b.high === prev.high &&
      b.low === prev.low &&
      b.close === prev.close
    )
      out.push({ date: b.date, kind: "duplicate_session", evidence: { repeats: prev.date } });
  }
  return out;
}

const knownYear = (date: string) => (CALENDAR_YEARS as readonly string[]).includes(date.slice(0, 4));

/**
 * (d) Bars on days the venue held no session: weekends in any year (no venue of the catalogue
 * trades on one), holidays in the years its calendar holds. (f) The venue's trading days of those
 * years between the first and the last stored bar without a bar.
 */
function calendarFindings(bars: readonly Bar[], venue: Venue): Finding[] {
  const out: Finding[] = [];
  for (const b of bars) {
    const reason = closedReason(venue, b.date);
    if (reason && (reason === "weekend" || knownYear(b.date)))
      out.push({ date: b.date, kind: "closed_day_bar", evidence: { venue: venue.code, closed: reason } });
  }
  const first = bars[0]?.date;
  const last = bars.at(-1)?.date;
  if (!first || !last) return out;
  const have = new Set(bars.map((b) => b.date));
  const start = `${CALENDAR_YEARS[0]}-01-01` > first ? `${CALENDAR_YEARS[0]}-01-01` : first;
  for (let d = start; d < last; d = addDays(d, 1)) {
    if (!knownYear(d) || have.has(d) || closedReason(venue, d) !== null) continue;
    const early = closingTime(venue, d) !== venue.close;
    out.push({
      date: d,
      kind: "missing_session",
      evidence: { venue: venue.code, ...(early ? { early_close: closingTime(venue, d) } : {}) },
    });
  }
  return out;
}

export interface SanityInput {
  /** Every stored daily bar of the listing, ascending. */
  bars: readonly Bar[];
  /** Its stored splits. */
  splits: readonly Split[];
  /** Its venue's calendar; undefined when the catalogue has none (no calendar findings). */
  venue: Venue | undefined;
}

/** Everything the net finds in a listing's stored bars, by date then kind. */
export function priceFindings({ bars, splits, venue }: SanityInput): Finding[] {
  const unit = unitGlitches(bars);
  const unitDates = new Set(unit.map((f) => f.date));
  // A bar 100 times off contradicts its own high and low only through that glitch.
  const impossible = impossibleBars(bars).filter((f) => !(f.kind === "ohlc_inconsistent" && unitDates.has(f.date)));
  // A bar already known wrong proves no split: its jump is its own glitch's.
  const skip = new Set([...unit, ...impossible].map((f) => f.date));
  const found = [
    ...impossible,
    ...unit,
    ...missingSplits(bars, new Set(splits.map((s) => s.date)), skip),
    ...splitsMisapplied(bars, splits),
    ...duplicatedSessions(bars),
    ...(venue ? calendarFindings(bars, venue) : []),
  ];
  return found.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.kind < b.kind ? -1 : 1));
}
