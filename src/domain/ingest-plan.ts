/**
 * What an ingestion still has to fetch: only the parts of the asked window that are not stored.
 * Dates are YYYY-MM-DD (UTC); windows are inclusive.
 */
export interface DateRange {
  from: string;
  to: string;
}

const DAY = 86_400_000;
/** `date` moved by whole calendar days. @example addDays("2026-03-01", -1) // "2026-02-28" */
export const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** The calendar day before `date`. */
export const dayBefore = (date: string) => addDays(date, -1);

/**
 * The ranges of `wanted` outside the stored range `[first, last]` (before it, after it, or all of it
 * when nothing is stored). Gaps inside the stored range are not refetched: providers serve every
 * session, so a hole there is a day without trading, not a missed one.
 * @example missingRanges({from: "2016-01-01", to: "2026-11-24"}, {first: "2016-01-04", last: "2026-11-20"})
 *          // [{from: "2016-01-01", to: "2016-01-03"}, {from: "2026-11-21", to: "2026-11-24"}]
 */
export function missingRanges(wanted: DateRange, stored: { first: string; last: string } | null): DateRange[] {
  if (wanted.from > wanted.to) return [];
  if (!stored) return [{ ...wanted }];
  const out: DateRange[] = [];
  if (wanted.from < stored.first) out.push({ from: wanted.from, to: wanted.to < stored.first ? wanted.to : addDays(stored.first, -1) });
  if (wanted.to > stored.last) out.push({ from: wanted.from > stored.last ? wanted.from : addDays(stored.last, 1), to: wanted.to });
  return out;
}

/**
 * The last weekday strictly before `today`: the newest session whose daily bar can be complete.
 * @example lastCompleteSession("2026-11-23") // "2026-11-20" (a Monday gives the Friday before)
 */
export function lastCompleteSession(today: string): string {
  let d = addDays(today, -1);
  for (;;) {
    const wd = new Date(`${d}T00:00:00Z`).getUTCDay();
    if (wd !== 0 && wd !== 6) return d;
    d = addDays(d, -1);
  }
}
