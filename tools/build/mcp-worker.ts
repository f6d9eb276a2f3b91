import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

/** The MCP Worker's config: name, date and flags, from workers/mcp/wrangler.toml. */
export function mcpWorkerConfig(root: string): {
  name: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
} {
  const config = readFileSync(join(root, "workers", "mcp", "wrangler.toml"), "utf8");
  const field = (name: string) => {
    const value = new RegExp(`^${name} = "(.+)"$`, "m").exec(config)?.[1];
    if (!value) throw new Error(`workers/mcp/wrangler.toml: no ${name}`);
    return value;
  };
  const flags = /^compatibility_flags = \[(.*)\]$/m.exec(config)?.[1] ?? "";
  return {
    name: field("name"),
    compatibilityDate: field("compatibility_date"),
    compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? ""),
  };
}

/** Earlier runs' builds, a day old or more (a run's own is read for as long as the run lasts). */
function removeOldBuilds(dir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith("mcp-build"));
  } catch {
    return;
  }
  const dayAgo = Date.now() - 86_400_000;
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The MCP Worker (workers/mcp) as Miniflare options, for runtimes that `wrangler dev` does not start
 * (the test pool, the benchmarks'): bundled as `wrangler deploy` would upload it, under .wrangler/.
 */
export function mcpWorkerOptions(root: string) {
  // One directory per process: the test projects start side by side, and two builds writing one
  // directory have read each other's half-written source map ("Unterminated string in JSON").
  const outDir = resolve(root, ".wrangler", `mcp-build-${process.pid}`);
  removeOldBuilds(resolve(root, ".wrangler"));
  const run = spawnSync(
    process.execPath,
    [
      `${dirname(createRequire(import.meta.url).resolve("wrangler/package.json"))}/bin/wrangler.js`,
      "deploy",
      "--dry-run",
      "--outdir",
      outDir,
      "-c",
      "workers/mcp/wrangler.toml",
    ],
    { cwd: root, encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(`building workers/mcp: ${run.stderr || run.stdout}`);
  return { ...mcpWorkerConfig(root), modules: true, scriptPath: join(outDir, "index.js"), modulesRoot: outDir };
}
