import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The import rules of the service, checked by `npm run lint`. Every source file under src/ and
 * durable-objects/ sits in one layer, and a file imports only its own layer or lower ones:
 *
 *   domain (pure, and the data tables of src/data) <- base (env, clock, auth) <- lower (db, providers, platform)
 *     <- services <- composition (deps.ts, work.ts) <- routes <- http (middleware, app) <- entry (index, cron, durable objects)
 *
 * Besides: routes reach the database, the providers and the cache only through services; drizzle-orm
 * is imported only under src/db, hono only by the HTTP layer (routes, middleware, app); and no two
 * files import each other, directly or round a longer loop (type-only imports count: a type cycle
 * ties the files' compilation and their reading together as much as a value one).
 */
export const LAYERS = ["domain", "base", "lower", "services", "composition", "routes", "http", "entry"] as const;
export type Layer = (typeof LAYERS)[number];

const BASE_FILES = new Set(["src/env.ts", "src/clock.ts", "src/auth.ts", "src/websocket-response.ts"]);
const COMPOSITION_FILES = new Set(["src/deps.ts", "src/work.ts"]);
const ENTRY_FILES = new Set(["src/index.ts", "src/cron.ts"]);

/** The layer of a source file, or null for a file no rule places (itself a finding). */
export function layerOf(path: string): Layer | null {
  if (path.startsWith("src/domain/") || path.startsWith("src/data/")) return "domain";
  if (BASE_FILES.has(path)) return "base";
  if (/^src\/(db|providers|platform)\//.test(path)) return "lower";
  if (path.startsWith("src/services/")) return "services";
  if (COMPOSITION_FILES.has(path)) return "composition";
  if (path.startsWith("src/routes/")) return "routes";
  if (path.startsWith("src/middleware/") || path === "src/app.ts") return "http";
  if (ENTRY_FILES.has(path) || path.startsWith("durable-objects/")) return "entry";
  return null;
}

const rank = (l: Layer) => LAYERS.indexOf(l);

/** Reached only through a service: what a route may not import. */
const BEHIND_SERVICES = /^src\/(db|providers)\/|^src\/platform\/cache\//;

/** Why `from` may not import `to` (both repository paths), or null when it may. */
export function boundaryProblem(from: string, to: string): string | null {
  const a = layerOf(from);
  const b = layerOf(to);
  if (a === null || b === null) return null; // reported once per file by unplacedFiles
  if (rank(b) > rank(a)) return `a ${a} file imports nothing of the ${b} layer above it`;
  if (a === "routes" && BEHIND_SERVICES.test(to))
    return "routes reach the database, providers and cache through services";
  return null;
}

/** Why a file may not import the package `spec`, or null when it may. */
export function packageProblem(from: string, spec: string): string | null {
  if (/^drizzle-orm(\/|$)/.test(spec) && !from.startsWith("src/db/"))
    return "drizzle-orm is imported only under src/db";
  const layer = layerOf(from);
  if (/^(hono|@hono\/|@scalar\/hono)/.test(spec) && layer !== "routes" && layer !== "http")
    return "hono is imported only by the HTTP layer (routes, middleware, app)";
  return null;
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The imports of a source file with their line numbers: relative ones resolved to repository paths, packages as written. */
export function importsOf(path: string, source: string): { target: string; line: number; relative: boolean }[] {
  const out: { target: string; line: number; relative: boolean }[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec) continue;
    const line = source.slice(0, (m.index ?? 0) + m[0].length).split("\n").length;
    if (!spec.startsWith(".")) {
      out.push({ target: spec, line, relative: false });
      continue;
    }
    out.push({ target: normalize(join(dirname(path), spec)).replace(/\\/g, "/"), line, relative: true });
  }
  return out;
}

/** The file an import names: itself, with `.ts`, or the folder's index.ts. */
const resolved = (files: ReadonlyMap<string, string>, target: string) =>
  [target, `${target}.ts`, `${target}/index.ts`].find((t) => files.has(t)) ?? target;

/** Source files no layer takes. */
export function unplacedFiles(files: ReadonlyMap<string, string>): string[] {
  return [...files.keys()].filter((p) => layerOf(p) === null).map((p) => `${p}: in no layer (tools/lint/layers.ts)`);
}

/** The import graph over the given files (relative imports only). */
function graphOf(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [path, source] of files)
    graph.set(
      path,
      importsOf(path, source)
        .filter((i) => i.relative)
        .map((i) => resolved(files, i.target))
        .filter((t) => files.has(t)),
    );
  return graph;
}

/**
 * Every import cycle, each as its files in order (`a -> b -> a`): the strongly connected components
 * of the import graph with more than one file, or a file that imports itself (Tarjan's algorithm,
 * iterative, so a deep chain of imports cannot overflow the stack).
 */
export function importCycles(files: ReadonlyMap<string, string>): string[] {
  const graph = graphOf(files);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[] = [];
  let next = 0;
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++] as string;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(to) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfImport = component.length === 1 && (graph.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfImport) {
        const sorted = component.sort();
        found.push(`import cycle among: ${sorted.join(", ")}`);
      }
    }
  }
  return found.sort();
}

/** Every finding: unplaced files, imports across a boundary the wrong way, forbidden packages, cycles. */
export function violations(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [...unplacedFiles(files)];
  for (const [path, source] of files)
    for (const { target, line, relative: rel } of importsOf(path, source)) {
      const to = rel ? resolved(files, target) : target;
      const problem = rel ? boundaryProblem(path, to) : packageProblem(path, to);
      if (problem) out.push(`${path}:${line}: imports ${to} (${problem})`);
    }
  return [...out, ...importCycles(files)];
}

function sources(root: string, dir: string, into: Map<string, string>): Map<string, string> {
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) sources(root, path, into);
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) into.set(path, readFileSync(join(root, path), "utf8"));
  }
  return into;
}

/** The repository's sources under src/ and durable-objects/ (generated declarations left out). */
export function repositorySources(root: string): Map<string, string> {
  return sources(root, "durable-objects", sources(root, "src", new Map()));
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === "") {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const files = repositorySources(root);
  const found = violations(files);
  console.log(
    `import rules (${LAYERS.join(" <- ")}; no cycles) over ${files.size} files: ${found.length} violation(s)`,
  );
  for (const v of found) console.error(v);
  process.exit(found.length ? 1 : 0);
}
