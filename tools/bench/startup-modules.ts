import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { benchHeader, median, roundOrder } from "./load";
import { buildBundle } from "./miniflare-worker";

/**
 * `npm run bench:startup:modules`: would a Worker uploaded as several modules, each route area
 * loaded on its first request, start faster? Starts the bare Hono app of tools/bench/bare in a new
 * runtime (Miniflare's workerd), alone and with the service's whole bundle uploaded beside it as a
 * second module: never imported, imported by a dynamic `import()` on a route that is not asked, or
 * imported at start. The first answer of each, in turns, `BENCH_ROUNDS` rounds (6). What the unused
 * module costs is what workerd spends on a module before anything imports it (compiling it);
 * what the imported one costs beyond that is its evaluation. `BENCH_FLAGS` adds compatibility flags
 * (e.g. new_module_registry). Prints JSON.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const FLAGS = (process.env.BENCH_FLAGS ?? "").split(",").filter(Boolean);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

type Module = { type: "ESModule"; path: string; contents: string };
interface Variant {
  name: "bare" | "unused_module" | "lazy_import" | "eager_import";
  modules: Module[];
}

function variants(bare: string, service: string): Variant[] {
  const main = (contents: string): Module => ({ type: "ESModule", path: "index.js", contents });
  const beside: Module = { type: "ESModule", path: "service.js", contents: service };
  // The bare bundle ends with its `export { ... }`: the lazy variant defines, before it, an import
  // no request makes.
  const lazy = bare.replace(/export\s*\{/, "globalThis.__service = () => import('./service.js');\nexport {");
  if (lazy === bare) throw new Error("the bare bundle has no export statement to put the lazy import before");
  return [
    { name: "bare", modules: [main(bare)] },
    { name: "unused_module", modules: [main(bare), beside] },
    { name: "lazy_import", modules: [main(lazy), beside] },
    {
      name: "eager_import",
      modules: [main(`import * as service from './service.js';\nglobalThis.__service = service;\n${bare}`), beside],
    },
  ];
}

/** ms from a new runtime to the bare app's first answer. */
async function firstAnswer(v: Variant): Promise<number> {
  const started = performance.now();
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: v.modules,
      compatibilityDate: "2026-11-01",
      compatibilityFlags: ["nodejs_compat", ...FLAGS],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  try {
    const res = await mf.dispatchFetch("http://bench.local/floor?bytes=2");
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${v.name}: HTTP ${res.status}`);
    return performance.now() - started;
  } finally {
    await mf.dispose();
  }
}

const dir = mkdtempSync(join(tmpdir(), "mds-startup-modules-"));
try {
  const bare = buildBundle(ROOT, "tools/bench/bare/wrangler.toml", join(dir, "bare"));
  const service = buildBundle(ROOT, "wrangler.toml", join(dir, "service"));
  const all = variants(readFileSync(bare.script, "utf8"), readFileSync(service.script, "utf8"));
  await firstAnswer(all[0] as Variant); // the first runtime start of a run warms the disk cache
  const samples = new Map<Variant["name"], number[]>(all.map((v) => [v.name, []]));
  for (let r = 0; r < ROUNDS; r++)
    for (const i of roundOrder(r, all.length)) {
      const v = all[i] as Variant;
      samples.get(v.name)?.push(await firstAnswer(v));
    }
  const m = (name: Variant["name"]) => Number(median(samples.get(name) ?? []).toFixed(1));
  console.log(
    JSON.stringify(
      {
        ...benchHeader("startup-modules"),
        rounds: ROUNDS,
        flags: FLAGS,
        service_module_kib: service.uploadKiB,
        first_answer_ms: Object.fromEntries(all.map((v) => [v.name, m(v.name)])),
        // What workerd spends on a module nobody imports, and what importing it adds.
        unused_module_cost_ms: Number((m("unused_module") - m("bare")).toFixed(1)),
        evaluation_cost_ms: Number((m("eager_import") - m("unused_module")).toFixed(1)),
        runs_ms: Object.fromEntries([...samples].map(([k, v]) => [k, v.map((x) => Number(x.toFixed(1)))])),
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
