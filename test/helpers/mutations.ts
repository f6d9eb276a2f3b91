/**
 * Mutations of a recorded answer for the drift net: one field, wherever a path finds it, removed,
 * given another type, or renamed. Paths are the wire schemas' (`earningsTrend.trend[].growth`,
 * `[]` for every item of a list, `{}` for every value of an object).
 */

export type MutationKind = "removed" | "retyped" | "renamed";
export const MUTATION_KINDS: readonly MutationKind[] = ["removed", "retyped", "renamed"];

type Json = Record<string, unknown>;
const SERIES = /^(annual|quarterly|trailing)[A-Z]/;
const isPlain = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The objects holding the path's last key, and that key: every place the field is sent. */
export function locate(root: unknown, path: string): { parent: Json; key: string }[] {
  const steps = path
    .split(".")
    .flatMap((s) => (s.endsWith("[]") ? [s.slice(0, -2), "[]"] : [s]))
    .filter((s) => s !== "");
  let at: unknown[] = [root];
  for (const [i, step] of steps.entries()) {
    if (i === steps.length - 1)
      return at.filter((v): v is Json => isPlain(v) && step in v).map((parent) => ({ parent, key: step }));
    at = at.flatMap((v) => {
      if (step === "[]") return Array.isArray(v) ? v : [];
      // Every value of an object keyed by position (EDGAR's company_tickers.json).
      if (step === "{}") return isPlain(v) ? Object.values(v) : [];
      // A timeseries answer's series, whatever its name (`annualTotalRevenue`).
      if (step === "{series}")
        return isPlain(v)
          ? Object.keys(v)
              .filter((k) => SERIES.test(k))
              .map((k) => v[k])
          : [];
      return isPlain(v) && step in v ? [v[step]] : [];
    });
  }
  return [];
}

/** A value of another JSON type than `v` (text where a number was, and the other way round). */
function otherType(v: unknown): unknown {
  const raw = isPlain(v) && "raw" in v ? v.raw : v;
  return typeof raw === "string" ? 42 : `${JSON.stringify(raw)}x`;
}

/** A deep copy of `body` with the field at `path` (under `root`, a function of the copy) mutated; null where the path finds nothing. */
export function mutated<T>(body: T, root: (copy: T) => unknown, path: string, kind: MutationKind): T | null {
  const copy = structuredClone(body);
  const places = locate(root(copy), path);
  if (places.length === 0) return null;
  for (const { parent, key } of places) {
    const value = parent[key];
    if (kind === "retyped") parent[key] = otherType(value);
    else {
      delete parent[key];
      if (kind === "renamed") parent[`${key}Renamed`] = value;
    }
  }
  return copy;
}
