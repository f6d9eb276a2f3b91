import type { Bar } from "./bars";
import type { Split } from "./corporate-actions";
import type { Finding } from "./price-sanity";
import { calendarFindings, duplicatedSessions, impossibleBars, unitGlitches } from "./price-sanity-bars";
import { missingSplits, splitsMisapplied } from "./price-sanity-splits";
import type { Venue } from "./venues";

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
