import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { buildDocsAssets } from "../build/docs-assets";
import { readDevVars } from "./keys";

/** Requests per key per minute when served locally (KEY_RATE_LIMIT): enough for one key to drive `npm run bench:load`. */
export const LOCAL_KEY_RATE_LIMIT = 10_000_000;

/**
 * The project's wrangler.toml with the per-key rate limit (KEY_RATE_LIMIT) raised to
 * LOCAL_KEY_RATE_LIMIT among its vars (the production default would refuse a load test's single key
 * within a second; a `.dev.vars` setting still wins), written under .wrangler/
 * with `main` made absolute, everything else as deployed; beside it the docs Worker's config
 * (workers/docs) with its assets folder made absolute, the assets built here instead of by its build
 * step (which would run in the copy's folder); and the MCP Worker's (workers/mcp). `wrangler dev` given
 * all three runs them in one process, the service bindings between them included.
 */
export function localConfig(root: string): { api: string; docs: string; mcp: string } {
  const text = readFileSync(join(root, "wrangler.toml"), "utf8");
  if (!/^\[vars\]$/m.test(text)) throw new Error("wrangler.toml: no [vars] table");
  const local = text
    .replace(/^\[vars\]$/m, `[vars]\nKEY_RATE_LIMIT = "${LOCAL_KEY_RATE_LIMIT}"`)
    .replace(/^main = "(.+)"$/m, (_, main: string) => `main = ${JSON.stringify(resolve(root, main))}`)
    // The [alias] table's files (zod without its locales), made absolute too.
    .replace(
      /^("[^"]+") = "(\.\/[^"]+)"$/gm,
      (_, name: string, file: string) => `${name} = ${JSON.stringify(resolve(root, file))}`,
    );
  const assets = buildDocsAssets(root);
  const docs = readFileSync(join(root, "workers", "docs", "wrangler.toml"), "utf8")
    .replace(/^directory = "(.+)"$/m, () => `directory = ${JSON.stringify(assets)}`)
    .replace(/^\[build\]\n(?:.+\n)+/m, "");
  const dir = join(root, ".wrangler", "local");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "wrangler.toml"), local);
  writeFileSync(join(dir, "docs.wrangler.toml"), docs);
  // The MCP Worker (workers/mcp) as deployed, its `main` made absolute.
  const mcp = readFileSync(join(root, "workers", "mcp", "wrangler.toml"), "utf8").replace(
    /^main = "(.+)"$/m,
    (_, main: string) => `main = ${JSON.stringify(resolve(root, "workers", "mcp", main))}`,
  );
  writeFileSync(join(dir, "mcp.wrangler.toml"), mcp);
  return {
    api: join(dir, "wrangler.toml"),
    docs: join(dir, "docs.wrangler.toml"),
    mcp: join(dir, "mcp.wrangler.toml"),
  };
}

/** `wrangler dev` of this project (or of another config) on a port with the given vars; stdio as asked. */
export function startWrangler(opts: {
  root: string;
  port: number;
  vars: Record<string, string>;
  quiet?: boolean;
  /** With `quiet`: the Worker's output goes to this file instead of nowhere (a bench's log, read after a failure). */
  logFile?: string;
  /** A wrangler.toml other than the project's local ones (the benchmark's bare app). */
  config?: string;
  /**
   * Where the local Durable Objects and queues keep their state: with the data they belong to, so a
   * stream subscribed in one data folder (the sandbox's, a test's) is not found in another.
   */
  stateDir?: string;
}): ChildProcess {
  // The primary Worker's config first: the one wrangler serves on the port.
  const local = opts.config === undefined ? localConfig(opts.root) : undefined;
  const configs = local ? [local.api, local.docs, local.mcp] : [opts.config ?? ""];
  const wranglerBin = `${dirname(createRequire(import.meta.url).resolve("wrangler/package.json"))}/bin/wrangler.js`;
  const args = [
    wranglerBin,
    "dev",
    "--local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(opts.port),
    "--show-interactive-dev-session=false",
    ...configs.flatMap((config) => ["--config", config]),
    // The usual place of local state (Durable Objects, queues), whichever config file is used.
    "--persist-to",
    opts.stateDir ?? join(opts.root, ".wrangler", "state"),
    // wrangler reads .dev.vars beside its config; the project's sits at the root.
    ...(existsSync(join(opts.root, ".dev.vars")) ? ["--env-file", join(opts.root, ".dev.vars")] : []),
  ];
  // A `.dev.vars` copied from the example holds `KEY_RATE_LIMIT=` empty, which would undo the raised
  // limit of the local config: the raised one is passed again unless a value is set.
  const devVars = existsSync(join(opts.root, ".dev.vars")) ? readDevVars(join(opts.root, ".dev.vars")) : {};
  const vars =
    local && !devVars.KEY_RATE_LIMIT ? { KEY_RATE_LIMIT: String(LOCAL_KEY_RATE_LIMIT), ...opts.vars } : opts.vars;
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const out = !opts.quiet ? "inherit" : opts.logFile ? openSync(opts.logFile, "a") : "ignore";
  return spawn(process.execPath, args, {
    cwd: opts.root,
    stdio: ["ignore", out, out],
    // Offline-friendly: no metrics, no update check, no download of the Request.cf object.
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      NO_UPDATE_NOTIFIER: "1",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
    },
    detached: true,
  });
}

/** wrangler starts workerd children of its own: signal the whole group. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    child.kill("SIGTERM");
  }
}

/** Polls `url` until it answers 200 or `timeoutMs` passes. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
