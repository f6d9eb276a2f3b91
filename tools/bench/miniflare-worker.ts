import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare, type V4MiniflareOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { docsWorkerConfig, docsWorkerOptions } from "../build/docs-assets";
import { mcpWorkerConfig, mcpWorkerOptions } from "../build/mcp-worker";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** A bundle as `wrangler deploy --dry-run` writes it, and its size as wrangler reports it. */
export interface Bundle {
  script: string;
  uploadKiB: number;
  gzipKiB: number;
}

/** Builds the bundle `wrangler deploy` would upload for `config` (relative to `root`) into `outDir`. */
export function buildBundle(root: string, config: string, outDir: string): Bundle {
  const run = spawnSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outDir, "-c", config], {
    cwd: root,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`wrangler deploy --dry-run -c ${config}: ${run.stderr}`);
  const main = /^main = "(.+)"$/m.exec(readFileSync(resolve(root, config), "utf8"))?.[1];
  if (!main) throw new Error(`${config}: no main`);
  const script = join(outDir, basename(main).replace(/\.ts$/, ".js"));
  if (!existsSync(script)) throw new Error(`${config}: wrangler wrote no ${basename(script)}`);
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(`${run.stdout}${run.stderr}`);
  const text = readFileSync(script, "utf8");
  return {
    script,
    uploadKiB: m ? Number(m[1]) : Number((Buffer.byteLength(text) / 1024).toFixed(2)),
    gzipKiB: m ? Number(m[2]) : Number((gzipSync(text).length / 1024).toFixed(2)),
  };
}

/**
 * Miniflare's options for `bundle` with the bindings of `bindingsFrom` (a wrangler config) and `vars`;
 * where those bindings reach the docs Worker (the service's DOCS_ASSETS), that Worker runs beside it,
 * as under `wrangler dev`.
 */
export function miniflareOptions(
  bundle: Bundle,
  bindingsFrom: string,
  vars: Record<string, string>,
): V4MiniflareOptions {
  // The bundle is built already: the config's module rules (for bundling) do not apply.
  const { modulesRules: _rules, ...workerOptions } = unstable_getMiniflareWorkerOptions(bindingsFrom).workerOptions;
  const worker = {
    ...workerOptions,
    bindings: { ...(workerOptions.bindings ?? {}), ...vars },
    modules: true,
    scriptPath: bundle.script,
    modulesRoot: dirname(bundle.script),
  };
  const { name } = docsWorkerConfig(ROOT);
  const bound = Object.values(workerOptions.serviceBindings ?? {}).some(
    (s) => typeof s === "object" && s !== null && "name" in s && s.name === name,
  );
  // The first Worker is the one Miniflare serves; the docs' files are copied only where they are bound.
  // The MCP Worker likewise, built only where the service binds it.
  const mcp = Object.values(workerOptions.serviceBindings ?? {}).some(
    (s) => typeof s === "object" && s !== null && "name" in s && s.name === mcpWorkerConfig(ROOT).name,
  );
  const others = [...(bound ? [docsWorkerOptions(ROOT)] : []), ...(mcp ? [mcpWorkerOptions(ROOT)] : [])];
  return (others.length > 0 ? { workers: [worker, ...others] } : worker) as V4MiniflareOptions;
}

/**
 * The Worker of `config` served by Miniflare itself on `port` (no `wrangler dev` in front): each
 * client is one socket of the runtime, where `wrangler dev`'s proxy costs several. The realtime
 * benchmark needs it: thousands of WebSockets through `wrangler dev` exhaust the runtime's file
 * descriptors. The Worker's output goes to `logFile`.
 */
export async function serveWithMiniflare(opts: {
  root: string;
  config: string;
  port: number;
  vars: Record<string, string>;
  logFile: string;
}): Promise<{ base: string; stop(): Promise<void> }> {
  const outDir = mkdtempSync(join(tmpdir(), "mds-bundle-"));
  let mf: Miniflare | undefined;
  const stop = async () => {
    await mf?.dispose();
    rmSync(outDir, { recursive: true, force: true });
  };
  try {
    const bundle = buildBundle(opts.root, opts.config, outDir);
    mf = new Miniflare(
      convertV4MiniflareOptions({
        ...miniflareOptions(bundle, opts.config, opts.vars),
        host: "127.0.0.1",
        port: opts.port,
        log: new Log(LogLevel.WARN),
        // Offline: the placeholder Request.cf object, not a download of the real one.
        cf: false,
        handleStructuredLogs: (log) => appendFileSync(opts.logFile, `${JSON.stringify(log)}\n`),
      } as V4MiniflareOptions),
    );
    const url = await mf.ready;
    return { base: url.origin, stop };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}
