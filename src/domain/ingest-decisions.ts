import type { Bar } from "./bars";
import { type DateRange, dayBefore, earlier, later, type SessionTest, sessionsOf } from "./ingest-plan";
import { addDays } from "./instants";

/**
 * What an ingestion decides once it has read what is stored and what the providers answered: which
 * ranges to remember as answered empty and for how long, how to ask again for a whole stored span,
 * and whether the whole span was stored.
 */

/**
 * A range a provider answered without a bar (a venue holiday, the years before a listing traded) is
 * not asked again for a day, or for an hour when it ends yesterday (a late bar may still come).
 */
export const emptyTtlSeconds = (range: DateRange, today: string) => (range.to >= dayBefore(today) ? 3_600 : 86_400);

/**
 * The parts of the requested ranges a provider that answered had no bar for: a whole range, or its
 * head before the first bar and its tail after the last, cut to possible sessions as the next plan
 * will cut them (so that the keys meet).
 */
export function emptyParts(ranges: readonly DateRange[], bars: readonly Bar[], sessionTest: SessionTest): DateRange[] {
  const empty: DateRange[] = [];
  for (const r of ranges) {
    const inside = bars.filter((b) => b.date >= r.from && b.date <= r.to).map((b) => b.date);
    if (inside.length === 0) {
      empty.push(r);
      continue;
    }
    const [first, last] = [inside.reduce(earlier), inside.reduce(later)];
    for (const part of [
      sessionsOf({ from: r.from, to: dayBefore(first) }, sessionTest),
      sessionsOf({ from: addDays(last, 1), to: r.to }, sessionTest),
    ])
      if (part) empty.push(part);
  }
  return empty;
}

/** The one range from the earliest start to the latest end of `ranges` (not empty). */
export const spanOf = (ranges: readonly DateRange[]): DateRange => ({
  from: ranges.map((r) => r.from).reduce(earlier),
  to: ranges.map((r) => r.to).reduce(later),
});

export const covers = (ranges: readonly DateRange[], r: DateRange) =>
  ranges.some((c) => c.from <= r.from && c.to >= r.to);

/**
 * How long a whole-span request is not repeated for the same state: a listing never checked (its
 * first request may have failed) a refresh interval less a margin; the same disagreement a week,
 * since asking again healed nothing (an event the provider withdrew stays stored, say).
 */
export const RETRY_UNCHECKED_SECONDS = 20 * 3_600;
export const RETRY_SAME_DISAGREEMENT_SECONDS = 7 * 86_400;

/**
 * The state of a listing's adjusted closes that calls for its whole stored span again, or null when
 * they are known to agree with its events at the provider's precision. Bars stored rounded to the
 * price hint are repaired by storing the whole span again.
 */
export function readjustState(
  check: { mismatches: number; precision: string; detail: readonly { date: string }[] } | null,
): string | null {
  if (check !== null && check.mismatches === 0 && check.precision === "full") return null;
  return check === null ? "unchecked" : `${check.precision} ${check.mismatches} from ${check.detail[0]?.date ?? "?"}`;
}

/**
 * Whether every delayed bar of the listing was stored by this ingestion: nothing was stored before,
 * or the whole span was asked and the answer reached back to the first stored session (within a
 * week: a holiday or a slot sent empty); an answer that stopped short left older bars as they were.
 */
export function wholeSpanStored(
  stored: { first: string } | null,
  wholeSpan: boolean,
  firstFetched: string | undefined,
) {
  return stored === null || (wholeSpan && firstFetched !== undefined && firstFetched <= addDays(stored.first, 7));
}
