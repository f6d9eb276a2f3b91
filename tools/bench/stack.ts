import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startSandbox } from "../dev/sandbox";
import { startLocalStack } from "../dev/stack";
import { killGroup, localConfig, startWrangler, waitForHttp } from "../dev/wrangler";
import { freePort } from "../net";
import type { MinuteBar } from "../sandbox/minute-path";
import { serveWithMiniflare } from "./miniflare-worker";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The service as the benchmarks drive it: wrangler dev against the local stack and the simulators. */
export interface BenchStack {
  base: string;
  headers: Record<string, string>;
  /** Every full-access key the Worker knows (the first is the one in `headers`). */
  keys: string[];
  databaseUrl: string;
  databaseLabel: string;
  cacheLabel: string;
  /** Control endpoints of the simulators. */
  control: { delayed: string; stream: string; scraped: string; edgar: string };
  /** Process group of `wrangler dev` and its workerd children (for their memory). */
  processGroup: number | undefined;
  /** Where the Worker's output goes (unless BENCH_VERBOSE shows it). */
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Postgres is DATABASE_URL when set (else a fresh embedded PGlite), the cache Redis when REDIS_URL
 * is set (through the Upstash bridge, else the in-isolate LRU); the floor route is on.
 */
export async function startBenchStack(
  opts: {
    onStreamUpdate?: (symbol: string, bar: MinuteBar) => void;
    /** Rewrites the stack's addresses before the Worker starts (the distance benchmark puts its delaying proxies there). */
    around?: (vars: Record<string, string>) => Promise<Record<string, string>>;
    /** Settings of the Worker beyond the stack's. */
    vars?: Record<string, string>;
    /** Full-access keys to create (1 by default): per-key limits (sockets, rate) then spread. */
    keys?: number;
    /**
     * `wrangler dev` (the default, as a user runs the service), or the bundle served by Miniflare
     * itself, one runtime socket per client (thousands of WebSockets exhaust `wrangler dev`'s).
     */
    runtime?: "wrangler" | "miniflare";
  } = {},
): Promise<BenchStack> {
  const dataDir = mkdtempSync(join(tmpdir(), "mds-bench-"));
  // Outside the data folder, which goes with the stack: read after a failure.
  const logFile = join(mkdtempSync(join(tmpdir(), "mds-bench-log-")), "wrangler.log");
  const stack = await startLocalStack({
    databaseUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    dataDir,
  });
  const sandbox = await startSandbox({}, { onUpdate: opts.onStreamUpdate });
  const keys = Array.from({ length: Math.max(1, opts.keys ?? 1) }, () => `bench-${randomBytes(16).toString("hex")}`);
  const key = keys[0] as string;
  const port = await freePort();
  const vars = {
    ...(opts.around ? await opts.around(stack.vars) : stack.vars),
    ...sandbox.vars,
    SERVICE_API_KEYS: keys.join(","),
    BENCH_ROUTES: "true",
    ...opts.vars,
  };
  const stopStack = async () => {
    await sandbox.stop();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  /** The Worker: stopped with the stack; `group` is wrangler's process group (none under Miniflare). */
  let worker: { stop(): Promise<void>; group?: number };
  if (opts.runtime === "miniflare") {
    worker = await serveWithMiniflare({ root: ROOT, config: localConfig(ROOT).api, port, vars, logFile }).catch(
      async (err: unknown) => {
        await stopStack();
        throw err;
      },
    );
  } else {
    const child = startWrangler({ root: ROOT, port, quiet: !process.env.BENCH_VERBOSE, logFile, vars });
    worker = { stop: async () => killGroup(child), group: child.pid };
  }
  const stop = async () => {
    await worker.stop();
    await stopStack();
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/health`, 90_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    base,
    headers: { "X-API-KEY": key },
    keys,
    databaseUrl: stack.vars.DATABASE_URL ?? "",
    databaseLabel: stack.databaseLabel,
    cacheLabel: stack.cacheLabel,
    control: sandbox.control,
    processGroup: worker.group,
    logFile,
    stop,
  };
}

/** Puts listings back to "never ingested" so an ingestion is a fresh ten-year one. */
export async function resetListings(databaseUrl: string, tickers: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const ids = (
      await client.query<{ id: number }>("select id from listings where ticker = any($1)", [tickers])
    ).rows.map((r) => r.id);
    await client.query("delete from prices_daily where listing_id = any($1)", [ids]);
    await client.query(
      "update listings set delayed_symbol = null, delayed_symbol_checked_at = null where id = any($1)",
      [ids],
    );
  } finally {
    await client.end();
  }
}

/**
 * Runs `body` against the bare Hono app of tools/bench/bare under `wrangler dev` (the same runtime
 * and the same machine as the service), then stops it.
 */
export async function withBareApp<T>(body: (base: string) => Promise<T>): Promise<T> {
  const port = await freePort();
  const child = startWrangler({
    root: ROOT,
    port,
    vars: {},
    quiet: !process.env.BENCH_VERBOSE,
    config: "tools/bench/bare/wrangler.toml",
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/floor?bytes=2`, 90_000);
    return await body(base);
  } finally {
    killGroup(child);
  }
}

/**
 * The requests of `routes` logged since `since` (usage rows, plus the counts of keyless requests such
 * as /health's), waiting (up to 30 s) for the usage queue to drain until `expected` are there.
 */
export async function usageRowsSince(
  databaseUrl: string,
  since: Date,
  routes: string[],
  expected: number,
): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let rows = 0;
    for (let waited = 0; waited <= 30_000; waited += 500) {
      const res = await client.query<{ n: string }>(
        `select (select count(*) from usage_logs where created_at >= $1 and route = any($2))
              + (select coalesce(sum(requests), 0) from usage_anonymous where window_start >= $1 and route = any($2))
              as n`,
        [since, routes],
      );
      rows = Number(res.rows[0]?.n ?? 0);
      if (rows >= expected) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    return rows;
  } finally {
    await client.end();
  }
}

/** The JSON report on stdout, and in the file after `--out` when given. */
function report(doc: unknown): void {
  const json = JSON.stringify(doc, null, 2);
  console.log(json);
  const outIndex = process.argv.indexOf("--out");
  const outFile = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
  if (outFile) writeFileSync(outFile, `${json}\n`);
}

/**
 * Runs a benchmark against a fresh stack: starts it, hands it to `body`, prints the returned
 * report, stops the stack, and exits 0 (or 1 with the reason).
 */
export function runBench(
  body: (stack: BenchStack) => Promise<unknown>,
  opts: Parameters<typeof startBenchStack>[0] = {},
): void {
  let logFile: string | undefined;
  const run = async () => {
    const stack = await startBenchStack(opts);
    logFile = stack.logFile;
    try {
      report(await body(stack));
    } finally {
      await stack.stop();
    }
  };
  run().then(
    () => process.exit(0),
    (err) => {
      console.error("bench failed:", err instanceof Error ? err.message : err);
      if (logFile) console.error(`the Worker's output: ${logFile}`);
      process.exit(1);
    },
  );
}
