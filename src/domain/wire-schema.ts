import { describe, type SchemaDrift } from "./drift";
import { isoDay } from "./instants";

/**
 * The service's own reading of a provider's document, field by field: a well-formed value is kept
 * (numbers unboxed from `{raw}`), a missing one stays missing (the validation layer counts it), and
 * one of another shape is dropped and reported as drift. Fields the schema does not name are kept
 * as they came: only what the service reads can drift.
 */

export type WireLeaf = "number" | "date" | "string";
export type WireNode =
  | WireLeaf
  | { readonly fields: Readonly<Record<string, WireNode>> }
  | { readonly list: WireNode }
  /**
   * A list of leaves read in place (the chart's parallel arrays): an item missing or of another
   * shape becomes null where it stood, so the lists stay aligned.
   */
  | { readonly series: WireLeaf }
  /** An object of names to numbers (`{"technology": 0.21}`). */
  | { readonly weights: true }
  /** An object keyed by the provider's own ids (the chart's events, by epoch): each value read as `entries`. */
  | { readonly entries: WireNode }
  /** A leaf the provider always sends where its parent is sent (what names a row): its absence is drift too. */
  | { readonly required: WireLeaf }
  /**
   * A field the provider always sends (a chart's currency): its key gone is drift, and costs only
   * itself; a null there is the provider's "no value", as for any field.
   */
  | { readonly always: WireNode };

type Plain = Record<string, unknown>;

const isPlain = (v: unknown): v is Plain =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** An empty box (`{}`, `{raw: null}`, `{fmt: null}`) is how the provider says "no value". */
const isEmptyBox = (v: unknown) =>
  isPlain(v) && Object.values(v).every((x) => x === null || x === undefined || x === "");

const unbox = (v: unknown): unknown => (isPlain(v) && "raw" in v ? v.raw : v);

const EPOCH_1980 = 315_532_800;
const EPOCH_2100 = 4_102_444_800;

/**
 * A real calendar day written YYYY-MM-DD, between 1980 and 2100 ("2024-13-45" and "0000-00-00"
 * have the shape of one and are not).
 * @example isDay("2024-02-29") // true
 */
export function isDay(s: string): boolean {
  if (!/^\d{4}-\d\d-\d\d$/.test(s)) return false;
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(t) && isoDay(new Date(t)) === s && t >= EPOCH_1980 * 1000 && t < EPOCH_2100 * 1000;
}

/**
 * The day a provider's date field names (YYYY-MM-DD): a valid Date, epoch seconds of a plausible day
 * (a small number, or milliseconds, is not a date), or a string starting with a real day; null else.
 * The one rule of what a date is, for the wire reader and the domain mapping.
 * @example dayOf(1727654400) // "2024-09-30"
 */
export function dayOf(x: unknown): string | null {
  if (x instanceof Date) return Number.isNaN(x.getTime()) ? null : isoDay(x);
  if (typeof x === "number") return dayOfEpoch(x);
  if (typeof x === "string" && isDay(x.slice(0, 10))) return x.slice(0, 10);
  return null;
}

/** Epoch seconds of a day between 1980 and 2100 as YYYY-MM-DD; null for anything else (milliseconds, garbage). */
export function dayOfEpoch(x: unknown): string | null {
  if (typeof x !== "number" || !(x >= EPOCH_1980 && x < EPOCH_2100)) return null;
  return isoDay(new Date(x * 1000));
}

/** A leaf's reading: the value to keep, `undefined` for "missing", or a drift. */
function readLeaf(kind: WireLeaf, v: unknown): { ok: unknown } | { bad: true } {
  if (v === undefined || v === null || isEmptyBox(v)) return { ok: undefined };
  const x = unbox(v);
  if (kind === "number") return typeof x === "number" && Number.isFinite(x) ? { ok: x } : { bad: true };
  if (kind === "string") return typeof x === "string" ? { ok: x } : { bad: true };
  return dayOf(x) === null ? { bad: true } : { ok: x };
}

const EXPECTED: Record<WireLeaf, string> = {
  number: "a number",
  date: "a date (epoch seconds or YYYY-MM-DD)",
  string: "a string",
};

function expectedOf(node: WireNode): string {
  if (typeof node === "string") return EXPECTED[node];
  if ("required" in node) return EXPECTED[node.required];
  if ("always" in node) return expectedOf(node.always);
  if ("list" in node || "series" in node) return "a list";
  return "an object";
}

/**
 * Reads `value` against `node`; returns the kept value (`undefined`: dropped or missing) and pushes
 * each drift. `path` is folded (`trend[].growth`).
 */
export function readWire(
  value: unknown,
  node: WireNode,
  at: { provider: string; document: string; path: string },
  drifts: SchemaDrift[],
): unknown {
  const drift = () => {
    drifts.push({
      provider: at.provider,
      document: at.document,
      path: at.path,
      expected: expectedOf(node),
      seen: describe(value),
    });
    return undefined;
  };
  if (typeof node === "string") {
    const r = readLeaf(node, value);
    return "bad" in r ? drift() : r.ok;
  }
  if ("always" in node && value === null) return undefined;
  if ("required" in node || "always" in node) {
    if (value === undefined || value === null || isEmptyBox(value)) {
      drifts.push({
        provider: at.provider,
        document: at.document,
        path: at.path,
        expected: "a value",
        seen: describe(value),
      });
      return undefined;
    }
    return readWire(value, "required" in node ? node.required : node.always, at, drifts);
  }
  if (value === undefined || value === null) return undefined;
  if ("series" in node) {
    if (!Array.isArray(value)) return drift();
    return value.map((item) => readWire(item, node.series, { ...at, path: `${at.path}[]` }, drifts) ?? null);
  }
  if ("list" in node) {
    if (!Array.isArray(value)) return drift();
    const kept: unknown[] = [];
    for (const item of value) {
      const r = readWire(item, node.list, { ...at, path: `${at.path}[]` }, drifts);
      if (r !== undefined) kept.push(r);
    }
    return kept;
  }
  if (!isPlain(value)) return drift();
  if ("entries" in node) {
    const kept: Plain = {};
    for (const [k, v] of Object.entries(value)) {
      const r = readWire(v, node.entries, { ...at, path: `${at.path}.{}` }, drifts);
      if (r !== undefined) kept[k] = r;
    }
    return kept;
  }
  if ("weights" in node) {
    const kept: Plain = {};
    for (const [k, v] of Object.entries(value)) {
      const r = readWire(v, "number", { ...at, path: `${at.path}.${k}` }, drifts);
      if (r !== undefined) kept[k] = r;
    }
    return kept;
  }
  const kept: Plain = { ...value };
  let unnamed = false;
  for (const [k, child] of Object.entries(node.fields)) {
    const r = readWire(value[k], child, { ...at, path: at.path ? `${at.path}.${k}` : k }, drifts);
    if (r === undefined) delete kept[k];
    else kept[k] = r;
    if (r === undefined && typeof child === "object" && "required" in child) unnamed = true;
  }
  // A row without what names it cannot be placed: it goes (its drift is reported).
  return unnamed ? undefined : kept;
}

/** The leaf paths whose absence is drift (the fields that name rows, and those always sent). */
export function requiredPaths(node: WireNode, path = ""): string[] {
  if (typeof node === "string" || "weights" in node || "series" in node) return [];
  if ("required" in node) return [path];
  if ("always" in node)
    return typeof node.always === "string" || "series" in node.always ? [path] : requiredPaths(node.always, path);
  if ("list" in node) return requiredPaths(node.list, `${path}[]`);
  if ("entries" in node) return requiredPaths(node.entries, `${path}.{}`);
  return Object.entries(node.fields).flatMap(([k, child]) => requiredPaths(child, path ? `${path}.${k}` : k));
}

/**
 * The leaf paths a schema names (`summaryDetail.trailingPE`, `earningsTrend.trend[].growth`): what
 * a client reads, for the drift net and the simulators' check.
 */
export function leafPaths(node: WireNode, path = ""): string[] {
  if (typeof node === "string" || "required" in node) return [path];
  if ("always" in node) return leafPaths(node.always, path);
  if ("list" in node) return leafPaths(node.list, `${path}[]`);
  if ("entries" in node) return leafPaths(node.entries, `${path}.{}`);
  // A series is mutated whole (its items are aligned with other lists').
  if ("weights" in node || "series" in node) return [path];
  return Object.entries(node.fields).flatMap(([k, child]) => leafPaths(child, path ? `${path}.${k}` : k));
}
