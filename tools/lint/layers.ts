import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The import boundaries of the service, checked by `npm run lint`: routes -> services ->
 * providers/db/cache -> domain. Domain code imports nothing of ours outside the domain; the
 * providers, the database layer and the cache import no service and no route; no service imports
 * a route (nor the HTTP middleware or the app that mounts the routes).
 */
export type Layer = "domain" | "lower" | "services" | "routes" | "http" | "other";

export function layerOf(path: string): Layer {
  if (path.startsWith("src/domain/")) return "domain";
  if (/^src\/(providers|db|cache)\//.test(path)) return "lower";
  if (path.startsWith("src/services/")) return "services";
  if (path.startsWith("src/routes/")) return "routes";
  if (path.startsWith("src/middleware/") || path === "src/app.ts" || path === "src/index.ts") return "http";
  return "other";
}

/** Why `from` may not import `to`, or null when it may. */
export function boundaryProblem(from: string, to: string): string | null {
  const a = layerOf(from);
  const b = layerOf(to);
  if (a === "domain" && b !== "domain") return "domain code imports nothing of ours outside the domain";
  if (a === "lower" && (b === "services" || b === "routes" || b === "http"))
    return "providers, db and cache import no service or route";
  if (a === "services" && (b === "routes" || b === "http")) return "no service imports a route";
  return null;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The relative imports of a source file, resolved to repository paths, with their line numbers. */
export function importsOf(path: string, source: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    if (!spec?.startsWith(".")) continue;
    const target = normalize(join(dirname(path), spec)).replace(/\\/g, "/");
    const line = source.slice(0, (m.index ?? 0) + m[0].length).split("\n").length;
    out.push({ target, line });
  }
  return out;
}

/** The file an import names: itself, with `.ts`, or the folder's index.ts. */
const resolved = (files: ReadonlyMap<string, string>, target: string) =>
  [target, `${target}.ts`, `${target}/index.ts`].find((t) => files.has(t)) ?? target;

/** Every import that crosses a boundary the wrong way, as `file:line: imports target (why)`. */
export function violations(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [path, source] of files)
    for (const { target, line } of importsOf(path, source)) {
      const problem = boundaryProblem(path, resolved(files, target));
      if (problem) out.push(`${path}:${line}: imports ${resolved(files, target)} (${problem})`);
    }
  return out;
}

function sources(root: string, dir: string, into: Map<string, string>): Map<string, string> {
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) sources(root, path, into);
    else if (name.endsWith(".ts")) into.set(path, readFileSync(join(root, path), "utf8"));
  }
  return into;
}

/** The repository's sources under src/ and durable-objects/. */
export function repositorySources(root: string): Map<string, string> {
  return sources(root, "durable-objects", sources(root, "src", new Map()));
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === "") {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const found = violations(repositorySources(root));
  console.log(`import boundaries (routes -> services -> providers/db/cache -> domain): ${found.length} violation(s)`);
  for (const v of found) console.error(v);
  process.exit(found.length ? 1 : 0);
}
