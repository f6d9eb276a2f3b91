/**
 * The price sanity net: the delayed provider's known glitches, found in a listing's stored daily
 * bars (users of the provider report each; yfinance keeps a "price repair" for them). Pure: the
 * bars, the splits and the venue's calendar are inputs. It finds and never changes: what can be
 * repaired safely is repaired by `repairBars`, in an answer that asked for it. This module names what
 * it finds; the checks are in price-sanity-splits and price-sanity-bars, the net in price-sanity-net.
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

/** The prices of a bar a unit glitch may strike, each found and repaired alone. */
export const UNIT_FIELDS = ["open", "high", "low", "close", "adjClose"] as const;

export const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

export const round = (x: number, digits = 6) => Number(x.toPrecision(digits));
