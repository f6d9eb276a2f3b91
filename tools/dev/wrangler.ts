import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname } from "node:path";

/** `wrangler dev` of this project (or of another config) on a port with the given vars; stdio as asked. */
export function startWrangler(opts: {
  root: string;
  port: number;
  vars: Record<string, string>;
  quiet?: boolean;
  /** A wrangler.toml other than the project's (the benchmark's bare app). */
  config?: string;
}): ChildProcess {
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
    ...(opts.config ? ["--config", opts.config] : []),
  ];
  for (const [k, v] of Object.entries(opts.vars)) args.push("--var", `${k}:${v}`);
  return spawn(process.execPath, args, {
    cwd: opts.root,
    stdio: ["ignore", opts.quiet ? "ignore" : "inherit", opts.quiet ? "ignore" : "inherit"],
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
