/**
 * Flat rows for the workspace's table widgets: every cell a string, number, boolean or null (the
 * grid shows nothing else), nested objects spread into `parent_child` columns, lists of plain
 * values joined. Pure.
 */

export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

const isPlain = (v: unknown): v is Cell =>
  v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/**
 * One object as a flat row: nested objects become `parent_child` columns; a list of plain values is
 * joined with ", "; a list of objects is left out (a table of its own, where a widget wants one).
 * @example flatRow({ ticker: "AAPL", listing: { isin: "US0378331005" }, tags: ["a", "b"] })
 *   // { ticker: "AAPL", listing_isin: "US0378331005", tags: "a, b" }
 */
export function flatRow(value: Record<string, unknown>, prefix = ""): Row {
  const row: Row = {};
  for (const [key, v] of Object.entries(value)) {
    const name = prefix ? `${prefix}_${key}` : key;
    if (v === undefined) continue;
    if (isPlain(v)) row[name] = v;
    else if (Array.isArray(v)) {
      if (v.every(isPlain)) row[name] = v.map((x) => String(x)).join(", ");
    } else if (typeof v === "object") Object.assign(row, flatRow(v as Record<string, unknown>, name));
  }
  return row;
}

/** A list of objects as flat rows. */
export const flatRows = (items: readonly Record<string, unknown>[]): Row[] => items.map((i) => flatRow(i));

/**
 * A document (nested sections of fields) as rows of section, field and value: how a
 * fundamentals document reads in a grid. Lists of plain values are joined; a list of objects
 * gives one row per item and field (`Holders[0].Name`). Rows come in a fixed order whatever the
 * order of the document's keys (a cached document may list them otherwise): the sections of
 * `sectionOrder` first, in its order, then the others by name; fields by name, numbers in
 * numeric order (`[2]` before `[10]`).
 */
export function documentRows(
  doc: Record<string, unknown>,
  sectionOrder: readonly string[] = [],
): { section: string; field: string; value: Cell }[] {
  const rows: { section: string; field: string; value: Cell }[] = [];
  const walk = (section: string, path: string, v: unknown) => {
    if (v === undefined) return;
    if (isPlain(v)) rows.push({ section, field: path, value: v });
    else if (Array.isArray(v)) {
      if (v.every(isPlain)) rows.push({ section, field: path, value: v.map((x) => String(x)).join(", ") });
      else for (const [i, item] of v.entries()) walk(section, `${path}[${i}]`, item);
    } else if (typeof v === "object")
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) walk(section, path ? `${path}.${k}` : k, x);
  };
  for (const [section, v] of Object.entries(doc)) {
    if (isPlain(v)) rows.push({ section: "", field: section, value: v });
    else walk(section, "", v);
  }
  const rank = (section: string) => {
    const i = sectionOrder.indexOf(section);
    return i === -1 ? sectionOrder.length : i;
  };
  const natural = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });
  return rows.sort(
    (a, b) => rank(a.section) - rank(b.section) || natural(a.section, b.section) || natural(a.field, b.field),
  );
}

/**
 * A growth's column in basis points (`growth_200bp` for 0.02): the workspace's grid reads a dot in a
 * field name as a path into the row, so `growth_0.02` would show nothing.
 */
export const growthColumn = (growth: string | number) => `growth_${Math.round(Number(growth) * 10_000)}bp`;
