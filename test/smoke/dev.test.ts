import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** Starts the README's dev command as a new user would (no DATABASE_URL, no keys, no network) and talks to it over HTTP. */

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("npm run dev", () => {
  let child: ChildProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "mds-smoke-"));
  let output = "";

  afterAll(() => {
    try {
      if (child?.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone: the test stopped it.
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers /health within 60 s on the embedded PGlite, serves the catalogue, and stops on Ctrl-C", async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DEV_DATA_DIR: dataDir };
    for (const k of ["DATABASE_URL", "REDIS_URL", "SERVICE_API_KEYS", "SERVICE_READ_ONLY_API_KEYS", "UPSTASH_REDIS_REST_URL"]) delete env[k];
    const started = Date.now();
    child = spawn("npm", ["run", "dev"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
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
    const elapsed = Date.now() - started;
    console.log(`dev stack answered /health after ${elapsed} ms`);
    expect(elapsed).toBeLessThan(60_000);
    expect(((await health?.json()) as { status: string }).status).toBe("ok");

    const key = /full-access key: (\S+)/.exec(output)?.[1];
    expect(key, output).toMatch(/^dev-full-[0-9a-f]{32}$/);
    const asset = await fetch(`${base}/assets/by-isin/US0378331005`, { headers: { "X-API-KEY": String(key) } });
    expect(asset.status).toBe(200);
    const body = (await asset.json()) as { ticker: string; isin: string; listings: unknown[] };
    expect([body.ticker, body.isin, body.listings.length]).toEqual(["AAPL", "US0378331005", 1]);
    expect((await fetch(`${base}/assets/by-isin/US0378331005`)).status).toBe(401);

    // Ctrl-C reaches the whole foreground process group, as in a terminal.
    const exited = new Promise<number | null>((resolve) => child?.on("exit", (code) => resolve(code)));
    process.kill(-(child.pid as number), "SIGINT");
    expect(await Promise.race([exited, sleep(20_000).then(() => "timeout")])).not.toBe("timeout");
    await sleep(500);
    expect(await fetch(`${base}/health`).then(() => "up", () => "down")).toBe("down");
  }, 120_000);
});
