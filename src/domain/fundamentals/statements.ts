import { isoDay } from "../instants";
import { isDay } from "../wire-schema";

/**
 * Statement rows from the delayed provider's fundamentals-timeseries: one row per period end, its
 * line items under snake_case names (totalRevenue -> total_revenue, EBIT -> ebit, dilutedEPS ->
 * diluted_eps), signs as the provider gives them (capital expenditure and dividends paid negative).
 */

export type StatementKind = "income" | "balance" | "cashflow";
export type StatementPeriod = "annual" | "quarterly";

export interface StatementRow {
  periodEnd: string;
  items: Record<string, number | null>;
}

/** The timeseries module that carries each statement. */
export const STATEMENT_MODULE = { income: "financials", balance: "balance-sheet", cashflow: "cash-flow" } as const;

/** camelCase or an acronym to snake_case: `totalRevenue` -> `total_revenue`, `EBITDA` -> `ebitda`, `dilutedEPS` -> `diluted_eps`. */
export function snakeCase(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

const NOT_ITEMS = new Set(["TYPE", "date", "periodType"]);

/**
 * The rows of one answer, newest first; a row without any item is dropped, and a period end given
 * twice keeps the later entry (the provider's order is arbitrary, its rows are unique by date).
 */
export function statementRows(rows: readonly Record<string, unknown>[]): StatementRow[] {
  const byEnd = new Map<string, StatementRow>();
  for (const r of rows) {
    const d = r.date;
    // A date that is not a real day is no period end (an invalid Date would throw in toISOString).
    const end =
      d instanceof Date && Number.isFinite(d.getTime()) ? isoDay(d) : typeof d === "string" ? d.slice(0, 10) : null;
    if (!end || !isDay(end)) continue;
    const items: Record<string, number | null> = {};
    for (const [k, v] of Object.entries(r)) {
      if (NOT_ITEMS.has(k)) continue;
      if (typeof v === "number" && Number.isFinite(v)) items[snakeCase(k)] = v;
    }
    if (Object.keys(items).length > 0) byEnd.set(end, { periodEnd: end, items });
  }
  return [...byEnd.values()].sort((a, b) => (a.periodEnd < b.periodEnd ? 1 : -1));
}
