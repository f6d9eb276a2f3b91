import { XMLParser } from "fast-xml-parser";
import { describe, type SchemaDrift, uniqueDrifts } from "../drift";
import { ECB } from "../provider-names";
import { isDay } from "../wire-schema";

/**
 * The ECB's two answers of euro reference rates, read into rows: the daily file
 * (`eurofxref-daily.xml`, and its 90-day and full-history siblings: a gesmes envelope of
 * `<Cube time="YYYY-MM-DD">` days, each with `<Cube currency="USD" rate="1.0876"/>` entries) and
 * the statistical data API's CSV of series EXR (`D.<currency>.EUR.SP00.A`, one observation a row).
 * Pure: text in, rows and drift out. An entry of another shape costs that entry only and is
 * reported as drift; an answer with nothing readable is the caller's bad answer.
 */

/** One published rate: units of `currency` for one euro on `day`, as the ECB wrote it. */
export interface EcbRate {
  day: string;
  currency: string;
  rate: string;
}

export interface EcbRead {
  rates: EcbRate[];
  drifts: SchemaDrift[];
}

/** A rate as the ECB writes it: a positive plain decimal (1.0876, 161.15, 16832.68). */
export const isRateText = (v: unknown): v is string =>
  typeof v === "string" && /^\d{1,9}(\.\d{1,10})?$/.test(v.trim()) && Number(v) > 0;

const isCode = (v: unknown): v is string => typeof v === "string" && /^[A-Z]{3}$/.test(v);

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (name) => name === "Cube",
  // The file is small and flat; entities are never needed (and never expanded).
  processEntities: false,
});

type Node = Record<string, unknown>;
const nodes = (v: unknown): Node[] =>
  Array.isArray(v) ? v.filter((n): n is Node => typeof n === "object" && n !== null) : [];

/** `eurofxref-daily.xml` (or the 90-day or full history): every day's rates found. */
export function readEurofxrefXml(text: string): EcbRead | null {
  let doc: Node;
  try {
    doc = xml.parse(text) as Node;
  } catch {
    return null;
  }
  const envelope = doc.Envelope as Node | undefined;
  const outer = nodes(envelope?.Cube)[0];
  if (!outer) return null;
  const rates: EcbRate[] = [];
  const drifts: SchemaDrift[] = [];
  const drift = (path: string, expected: string, seen: unknown) =>
    drifts.push({ provider: ECB, document: "eurofxref", path, expected, seen: describe(seen) });
  for (const dayCube of nodes(outer.Cube)) {
    const day = dayCube["@time"];
    if (typeof day !== "string" || !isDay(day)) {
      drift("Cube.Cube[]@time", "a day (YYYY-MM-DD)", day);
      continue;
    }
    for (const entry of nodes(dayCube.Cube)) {
      const currency = entry["@currency"];
      const rate = entry["@rate"];
      if (!isCode(currency)) drift("Cube.Cube[].Cube[]@currency", "a currency code", currency);
      else if (!isRateText(rate)) drift("Cube.Cube[].Cube[]@rate", "a positive decimal", rate);
      else rates.push({ day, currency, rate: rate.trim() });
    }
  }
  return { rates, drifts: uniqueDrifts(drifts) };
}

/**
 * One line of CSV into its fields (RFC 4180 quoting: "a, b" and "" for a quote), in one pass.
 * Quoted fields may not span lines here: the data API writes none that do.
 */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      out.push(field);
      field = "";
    } else field += ch;
  }
  out.push(field);
  return out;
}

/** Columns the reader needs, by the names of the data API's header. */
const COLUMNS = ["CURRENCY", "CURRENCY_DENOM", "TIME_PERIOD", "OBS_VALUE"] as const;

/**
 * The data API's `format=csvdata` answer of EXR daily series against the euro. Rows of another
 * denomination or frequency are not the euro's daily rates and are left out; a row without a
 * value ("NaN", blank: no observation that day) is skipped; one of another shape is drift.
 * Null when the header lacks a column it needs (nothing can be read).
 */
export function readExrCsv(text: string): EcbRead | null {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = lines[0] ? csvFields(lines[0].replace(/^\uFEFF/, "")) : [];
  const at = Object.fromEntries(COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<(typeof COLUMNS)[number], number>;
  if (Object.values(at).some((i) => i < 0)) return null;
  const freq = header.indexOf("FREQ");
  const rates: EcbRate[] = [];
  const drifts: SchemaDrift[] = [];
  const drift = (path: string, expected: string, seen: unknown) =>
    drifts.push({ provider: ECB, document: "exr_csv", path, expected, seen: describe(seen) });
  for (const line of lines.slice(1)) {
    const f = csvFields(line);
    if (f[at.CURRENCY_DENOM] !== "EUR" || (freq >= 0 && f[freq] !== "D")) continue;
    const currency = f[at.CURRENCY];
    const day = f[at.TIME_PERIOD];
    const value = f[at.OBS_VALUE]?.trim() ?? "";
    if (value === "" || value === "NaN") continue;
    if (!isCode(currency)) drift("CURRENCY", "a currency code", currency);
    else if (typeof day !== "string" || !isDay(day)) drift("TIME_PERIOD", "a day (YYYY-MM-DD)", day);
    else if (!isRateText(value)) drift("OBS_VALUE", "a positive decimal", value);
    else rates.push({ day, currency, rate: value });
  }
  return { rates, drifts: uniqueDrifts(drifts) };
}
