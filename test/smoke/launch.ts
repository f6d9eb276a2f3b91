import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { freeFixedPort } from "../../tools/net";

/** Starting the README's dev commands as a new user would, for the smoke tests. */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Running {
  child: ChildProcess;
  base: string;
  key: string;
  readOnlyKey: string;
  output: () => string;
  startedInMs: number;
}

const launched: ChildProcess[] = [];
const dirs: string[] = [];

/** Kills every stack launched and removes its data folder (a file's afterAll). */
export function stopLaunched(): void {
  for (const child of launched) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone: the test stopped it.
    }
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

/** `npm run <script>` on a free port and a fresh data folder, until /health answers (at most 60 s). */
export async function launch(script: string, extraEnv: Record<string, string> = {}): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), "mds-smoke-"));
  dirs.push(dataDir);
  // Below the ephemeral range: the simulators the launched stack starts listen on ports the OS picks.
  const port = await freeFixedPort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DEV_DATA_DIR: dataDir, ...extraEnv };
  for (const k of [
    "DATABASE_URL",
    "REDIS_URL",
    "SERVICE_API_KEYS",
    "SERVICE_READ_ONLY_API_KEYS",
    "UPSTASH_REDIS_REST_URL",
  ])
    delete env[k];
  const started = Date.now();
  const child = spawn("npm", ["run", script], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  launched.push(child);
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  let health: Response | undefined;
  while (Date.now() - started < 60_000 && child.exitCode === null) {
    health = await fetch(`${base}/health`).catch(() => undefined);
    if (health?.ok) break;
    await sleep(500);
  }
  expect(health?.status, output).toBe(200);
  expect(((await health?.json()) as { status: string } | undefined)?.status).toBe("ok");
  const key = /full-access key: (\S+)/.exec(output)?.[1];
  expect(key, output).toMatch(/^dev-full-[0-9a-f]{32}$/);
  const readOnlyKey = /read-only key:\s+(\S+)/.exec(output)?.[1];
  expect(readOnlyKey, output).toMatch(/^dev-ro-[0-9a-f]{32}$/);
  return {
    child,
    base,
    key: String(key),
    readOnlyKey: String(readOnlyKey),
    output: () => output,
    startedInMs: Date.now() - started,
  };
}

/** Ctrl-C reaches the whole foreground process group, as in a terminal; nothing may keep answering. */
export async function interrupt(r: Running): Promise<void> {
  const exited = new Promise<number | null>((resolve) => r.child.on("exit", (code) => resolve(code)));
  process.kill(-(r.child.pid as number), "SIGINT");
  expect(await Promise.race([exited, sleep(20_000).then(() => "timeout")])).not.toBe("timeout");
  await sleep(500);
  expect(
    await fetch(`${r.base}/health`).then(
      () => "up",
      () => "down",
    ),
  ).toBe("down");
}
