import { XMLParser } from "fast-xml-parser";

/**
 * The structure of a provider's answer: every key path with the JSON types seen there, list indexes
 * folded (`quotes[].symbol`), keys that are data rather than names folded too (epoch-keyed events,
 * numbered entries `{n}`, timeseries series names `{series}`). Two answers have the same structure
 * when they have the same paths with the same types; the simulators are held to the recordings by it.
 */

export type JsonType = "null" | "boolean" | "number" | "string" | "object" | "array";
export type Shape = Map<string, Set<JsonType>>;

const typeOf = (v: unknown): JsonType =>
  v === null ? "null" : Array.isArray(v) ? "array" : (typeof v as "boolean" | "number" | "string" | "object");

/** A key that is data: a number (epochs, row numbers) or a timeseries series name. */
function foldKey(key: string): string {
  if (/^\d+$/.test(key)) return "{n}";
  if (/^(annual|quarterly|trailing)[A-Z]/.test(key)) return "{series}";
  return key;
}

export function shapeOf(value: unknown, path = "", out: Shape = new Map()): Shape {
  const t = typeOf(value);
  const at = path || "(root)";
  let seen = out.get(at);
  if (!seen) {
    seen = new Set();
    out.set(at, seen);
  }
  seen.add(t);
  if (t === "array") for (const item of value as unknown[]) shapeOf(item, `${path}[]`, out);
  else if (t === "object")
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      shapeOf(v, path ? `${path}.${foldKey(k)}` : foldKey(k), out);
  return out;
}

/** Every element as a list: one transaction and several have the same structure. */
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  trimValues: true,
  isArray: () => true,
});

/** The structure of an answer's body: JSON as is, XML (RSS, Form 4) as its element tree, other text as text. */
export function bodyShape(body: unknown): Shape {
  if (typeof body !== "string") return shapeOf(body);
  const text = body.trim();
  if (text.startsWith("{") || text.startsWith("[")) {
    try {
      return shapeOf(JSON.parse(text));
    } catch {
      // not JSON after all: text
    }
  }
  if (text.startsWith("<")) return shapeOf(xml.parse(text));
  // The stream provider's framing: ~m~<length>~m~<payload>, several to a message.
  if (text.startsWith("~m~"))
    return shapeOf(
      text
        .split(/~m~\d+~m~/)
        .filter(Boolean)
        .map((p) => {
          try {
            return JSON.parse(p) as unknown;
          } catch {
            return p;
          }
        }),
    );
  return new Map([["(root)", new Set<JsonType>(["string"])]]);
}

export interface ShapeDifference {
  /** `missing`: the recording has the path, the simulator not; `extra`: the other way; `type`: both, other types. */
  kind: "missing" | "extra" | "type";
  path: string;
  recorded: JsonType[];
  simulated: JsonType[];
}

/**
 * Where a simulated answer's structure departs from a recorded one. A path the recording has only
 * as null may hold any type in the simulator (null says nothing of the type); any other type the
 * simulator sends must be one the recording sent there.
 */
export function compareShapes(recorded: Shape, simulated: Shape): ShapeDifference[] {
  const out: ShapeDifference[] = [];
  const list = (s: Set<JsonType> | undefined) => [...(s ?? [])].sort();
  for (const [path, types] of recorded) {
    const sim = simulated.get(path);
    if (!sim) {
      out.push({ kind: "missing", path, recorded: list(types), simulated: [] });
      continue;
    }
    const known = [...types].filter((t) => t !== "null");
    const unexpected = [...sim].filter((t) => t !== "null" && known.length > 0 && !known.includes(t));
    if (unexpected.length) out.push({ kind: "type", path, recorded: list(types), simulated: list(sim) });
  }
  for (const [path, types] of simulated)
    if (!recorded.has(path)) out.push({ kind: "extra", path, recorded: [], simulated: list(types) });
  return out;
}
