import { describe, type SchemaDrift, uniqueDrifts } from "../drift";
import { dayOfEpoch, isDay } from "../wire-schema";

/**
 * The service's own reading of a fundamentals-timeseries answer: one row per period end with the
 * line items reported for it. Each series is read alone: a series of another shape, or an item
 * whose value is not a number, costs that series or item and is reported as drift. (The client
 * library's own reading takes the third key of each series as its data, drops zeros and throws on
 * the first surprise; it is not used for the figures.)
 */

const DOCUMENT = "timeseries";

/** One period of an answer: its end, its period type and its line items (`totalRevenue`, `EBIT`). */
export interface TimeseriesRow {
  date: Date;
  periodType?: string;
  [item: string]: number | string | Date | undefined;
}

const SERIES_KEY = /^(annual|quarterly|trailing)([A-Z].*)$/;
const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `annualTotalRevenue` -> `totalRevenue`; an acronym stays as it is (`annualEBIT` -> `EBIT`). */
function itemName(seriesKey: string): string | null {
  const m = SERIES_KEY.exec(seriesKey);
  const short = m?.[2];
  if (!short) return null;
  return short === short.toUpperCase() ? short : `${short[0]?.toLowerCase()}${short.slice(1)}`;
}

/** The data key of one series entry: the one `meta.type` names, else the one shaped like a series key. */
function seriesKeyOf(entry: Record<string, unknown>): string | null {
  const meta = entry.meta;
  const named = isPlain(meta) && Array.isArray(meta.type) && typeof meta.type[0] === "string" ? meta.type[0] : null;
  if (named && named in entry) return named;
  return Object.keys(entry).find((k) => SERIES_KEY.test(k)) ?? null;
}

type ItemReading =
  | { end: string; value: number; periodType: string | null }
  | { drift: { path: string; expected: string; seen: unknown } };

/** One reported value of a series: its period end and number; null for an empty slot. */
function readItem(item: unknown, stamp: unknown, key: string): ItemReading | null {
  if (item === null || item === undefined) return null;
  if (!isPlain(item)) return { drift: { path: `${key}[]`, expected: "an object per period", seen: item } };
  const end = typeof item.asOfDate === "string" && isDay(item.asOfDate) ? item.asOfDate : dayOfEpoch(stamp);
  if (!end) return { drift: { path: `${key}[].asOfDate`, expected: "a date (YYYY-MM-DD)", seen: item.asOfDate } };
  const reported = item.reportedValue;
  const raw = isPlain(reported) ? reported.raw : undefined;
  if (typeof raw !== "number" || !Number.isFinite(raw))
    return {
      drift: { path: `${key}[].reportedValue.raw`, expected: "a number", seen: isPlain(reported) ? raw : reported },
    };
  return { end, value: raw, periodType: typeof item.periodType === "string" ? item.periodType : null };
}

/**
 * Reads the answer's body (`{timeseries: {result: [...]}}`). Throws only when the document has no
 * list of series at all (nothing in it can be read); the caller turns that into a bad response.
 */
export function readTimeseries(provider: string, body: unknown): { rows: TimeseriesRow[]; drifts: SchemaDrift[] } {
  const result = isPlain(body) && isPlain(body.timeseries) ? body.timeseries.result : undefined;
  if (!Array.isArray(result)) throw new Error(`no timeseries.result list (saw ${describe(result)})`);
  const drifts: SchemaDrift[] = [];
  const drift = (path: string, expected: string, v: unknown) =>
    drifts.push({ provider, document: DOCUMENT, path, expected, seen: describe(v) });
  const byEnd = new Map<string, TimeseriesRow>();
  for (const entry of result) {
    if (!isPlain(entry)) {
      drift("result[]", "an object per series", entry);
      continue;
    }
    const key = seriesKeyOf(entry);
    // A series without data carries only its meta: nothing was reported.
    if (!key) continue;
    const name = itemName(key);
    const items = entry[key];
    if (!name) continue;
    if (!Array.isArray(items)) {
      drift(`${key}`, "a list of reported values", items);
      continue;
    }
    const stamps = Array.isArray(entry.timestamp) ? entry.timestamp : [];
    items.forEach((item, i) => {
      const read = readItem(item, stamps[i], key);
      if (read === null) return;
      if ("drift" in read) {
        drift(read.drift.path, read.drift.expected, read.drift.seen);
        return;
      }
      const row = byEnd.get(read.end) ?? { date: new Date(`${read.end}T00:00:00Z`) };
      row[name] = read.value;
      if (read.periodType) row.periodType = read.periodType;
      byEnd.set(read.end, row);
    });
  }
  return { rows: [...byEnd.values()], drifts: uniqueDrifts(drifts) };
}
