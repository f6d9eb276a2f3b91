import { addDays, earlierDay, laterDay } from "../instants";

/**
 * Which windows of rates a span of days needs fetched, given what each currency has stored of each
 * year: one contiguous span of the year, `since` to `through`. A missing window lies before the
 * span (back to the year's start) or after it (to the year's end or the newest publication), so
 * a stored span only ever grows by what touches it. Pure.
 */

/** The ECB's first publication: no rate exists before it. */
export const FIRST_PUBLICATION = "1999-01-04";

/**
 * The ECB's 90-day file covers about 64 publications: a window starting no earlier than this many
 * days before the newest publication is read from it (one static file) rather than the data API.
 */
export const RECENT_FILE_DAYS = 80;

/** A currency's stored span of one year. */
export interface StoredSpan {
  since: string;
  through: string;
}

/** A window of one year's rates of some currencies: one request to the ECB. */
export interface FxWindow {
  year: number;
  from: string;
  to: string;
  currencies: string[];
}

/** Where a currency's year is stored: `spans.get(coverageKey("USD", 2026))`. */
export const coverageKey = (currency: string, year: number) => `${currency} ${year}`;

/**
 * The windows still to fetch for the currencies over the days `from` to `to` (clamped to the
 * first and the newest publication), oldest first. Within a year the currencies missing the same
 * side of their spans go together, the window reaching as far as any of them needs (days fetched
 * again are rewritten as they were). A year none of them has stored is fetched whole, unless the
 * span asked is recent: then from RECENT_FILE_DAYS before the newest publication.
 * @example missingWindows(["USD"], "2026-11-02", "2026-11-27", "2026-11-27",
 *   new Map([["USD 2026", { since: "2026-01-01", through: "2026-11-20" }]]))
 *   // [{ year: 2026, from: "2026-11-21", to: "2026-11-27", currencies: ["USD"] }]
 */
export function missingWindows(
  currencies: readonly string[],
  from: string,
  to: string,
  latest: string,
  spans: ReadonlyMap<string, StoredSpan>,
): FxWindow[] {
  const start = laterDay(from, FIRST_PUBLICATION);
  const end = earlierDay(to, latest);
  if (start > end) return [];
  const recentFrom = addDays(latest, -RECENT_FILE_DAYS);
  const out: FxWindow[] = [];
  for (let year = Number(start.slice(0, 4)); year <= Number(end.slice(0, 4)); year++) {
    const yearStart = year === 1999 ? FIRST_PUBLICATION : `${year}-01-01`;
    const yearEnd = earlierDay(`${year}-12-31`, latest);
    const needFrom = laterDay(start, yearStart);
    const needTo = earlierDay(end, yearEnd);
    const before: FxWindow = { year, from: yearStart, to: "", currencies: [] };
    const after: FxWindow = { year, from: "", to: yearEnd, currencies: [] };
    for (const c of currencies) {
      const span = spans.get(coverageKey(c, year));
      if (!span) {
        // Nothing of the year: the whole year, or only the recent days when only they are asked.
        const first = needFrom >= recentFrom ? laterDay(recentFrom, yearStart) : yearStart;
        after.from = after.from ? earlierDay(after.from, first) : first;
        after.currencies.push(c);
        continue;
      }
      if (needFrom < span.since) {
        const last = addDays(span.since, -1);
        before.to = before.to ? laterDay(before.to, last) : last;
        before.currencies.push(c);
      }
      if (needTo > span.through) {
        const first = addDays(span.through, 1);
        after.from = after.from ? earlierDay(after.from, first) : first;
        after.currencies.push(c);
      }
    }
    for (const w of [before, after]) if (w.currencies.length) out.push({ ...w, currencies: w.currencies.sort() });
  }
  return out;
}

/** The years a span of days touches. */
export function yearsOf(from: string, to: string): number[] {
  const out: number[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++) out.push(y);
  return out;
}

/** Whether a window is read from the 90-day file (its days all recent) rather than the data API. */
export const fromRecentFile = (w: Pick<FxWindow, "from">, latest: string): boolean =>
  w.from >= addDays(latest, -RECENT_FILE_DAYS);

/** A queue message that is a window (anything else is dropped by the consumer). */
export function isFxWindow(v: unknown): v is FxWindow {
  const w = v as Partial<FxWindow> | null;
  return (
    typeof w === "object" &&
    w !== null &&
    Number.isInteger(w.year) &&
    typeof w.from === "string" &&
    typeof w.to === "string" &&
    Array.isArray(w.currencies) &&
    w.currencies.every((c) => typeof c === "string" && /^[A-Z]{3}$/.test(c)) &&
    /^\d{4}-\d{2}-\d{2}$/.test(w.from) &&
    /^\d{4}-\d{2}-\d{2}$/.test(w.to)
  );
}
