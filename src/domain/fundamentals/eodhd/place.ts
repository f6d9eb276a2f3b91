import Decimal from "decimal.js";

/**
 * The rendered fundamentals document in EODHD's layout (fmt=eodhd): section and field names as
 * EODHD spells them (typos included), numbers in the snapshot sections, two-decimal strings in
 * statement rows, null for unknown, ratios as ratios and percents as percents (EODHD's
 * PercentInsiders, PercentInstitutions, surprisePercent, Assets_% and Yield of funds are percents).
 * Pure: the caller has chosen each figure's source (spec /fundamental rule 1); the modules of this
 * folder place each figure (one module per section) and write its label into Sources.
 */

/** A figure chosen for the document and where it came from. */
export interface Sourced {
  value: number | string;
  label: string;
  /** A trailing figure read from a web page: never placed where a forward figure is meant. */
  trailingOnly?: boolean;
}

/** Forward figures: a page's trailing value is another quantity (spec /fundamental rule 2). */
const FORWARD_KEYS = new Set(["ForwardAnnualDividendYield", "ForwardAnnualDividendRate"]);

export type FigureTable = ReadonlyMap<string, Sourced>;

export type Sources = Record<string, Record<string, string>>;

export type Section = Record<string, unknown>;

/** How a service figure appears in a section: EODHD's name, and a scale (x100 for EODHD's percents). */
export type Placement = [eodhd: string, field: string | null, scale?: "percent" | "millions"];

function scaled(v: number | string, scale: Placement[2]): number | string {
  if (typeof v !== "number" || !scale) return v;
  // In decimal: 0.0171 becomes 1.71, not 1.7100000000000002.
  return scale === "percent" ? new Decimal(v).times(100).toNumber() : new Decimal(v).div(1e6).toNumber();
}

/** One snapshot section: every EODHD field present (null when unknown), each known one labelled in Sources. */
export function place(name: string, placements: Placement[], figures: FigureTable, sources: Sources): Section {
  const section: Section = {};
  const labels: Record<string, string> = {};
  for (const [key, field, scale] of placements) {
    const found = field ? figures.get(field) : undefined;
    const f = found?.trailingOnly && FORWARD_KEYS.has(key) ? undefined : found;
    section[key] = f ? scaled(f.value, scale) : null;
    if (f) labels[key] = f.label;
  }
  if (Object.keys(labels).length) sources[name] = labels;
  return section;
}
