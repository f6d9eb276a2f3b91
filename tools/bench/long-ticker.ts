import { randomBytes } from "node:crypto";
import WebSocket from "ws";
import { benchHeader, median, percentile } from "./load";
import { type BenchStack, runBench, withBareApp } from "./stack";

/**
 * `npm run bench:long-ticker`: what a 16,000-character ticker costs through `wrangler dev`, on every
 * route with a `{ticker}` or `{symbol}` in its path and on the WebSocket route, without a key and
 * with a read-only key (the nearest an attacker gets to the parameter's validation). Each is sent
 * RUNS times after a warm-up; wall time from the request to the whole answer (the socket's close).
 * The target: each case's median under TARGET_MS. Its 95th percentile is reported beside the bare
 * Hono app's of tools/bench/bare, under `wrangler dev` in the same run and sent as many cases of a URL
 * as long (its floor route, the segment in the query): the tail the runtime and the machine give alone.
 * Prints JSON; `--out FILE` writes it.
 */
const RUNS = 30;
const TARGET_MS = 20;
/** Letters ending in a character no ticker has: what a pattern that backtracks spends most on. */
const SEGMENT = `${"A".repeat(15_999)}!`;
const READ_ONLY = `bench-ro-${randomBytes(16).toString("hex")}`;

interface Operation {
  method: string;
  path: string;
}

async function operationsWithTicker(stack: BenchStack): Promise<Operation[]> {
  const doc = (await (await fetch(`${stack.base}/openapi.json`)).json()) as { paths: Record<string, object> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    /\{(ticker|symbol)\}/.test(path) ? Object.keys(item).map((m) => ({ method: m.toUpperCase(), path })) : [],
  );
}

/** One HTTP request's wall time and status, its body read whole. */
async function timed(url: string, init: RequestInit): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

/** One WebSocket handshake's wall time until the service closes it, and the close code. */
function timedSocket(url: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on("close", (code) => resolve({ ms: performance.now() - started, status: code }));
    ws.on("unexpected-response", (_req, res) =>
      resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }),
    );
    ws.on("error", reject);
  });
}

function summary(route: string, caller: string, samples: { ms: number; status: number }[]) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const round = (n: number) => Number(n.toFixed(2));
  return {
    route,
    caller,
    statuses: [...new Set(samples.map((s) => s.status))],
    median_ms: round(median(ms)),
    p95_ms: round(percentile(ms, 95)),
    max_ms: round(ms.at(-1) ?? Number.NaN),
  };
}

async function measure(run: () => Promise<{ ms: number; status: number }>) {
  for (let i = 0; i < 3; i++) await run();
  const samples: { ms: number; status: number }[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await run());
  return samples;
}

runBench(
  async (stack) => {
    const ops = await operationsWithTicker(stack);
    const callers = [
      { name: "no key", headers: {} as Record<string, string> },
      { name: "read-only key", headers: { "X-API-KEY": READ_ONLY } as Record<string, string> },
    ];
    const rows: ReturnType<typeof summary>[] = [];
    for (const op of ops) {
      const path = op.path.replace(/\{(ticker|symbol)\}/, SEGMENT).replace(/\{\w+\}/g, "X");
      for (const caller of callers) {
        const body = op.method === "GET" || op.method === "DELETE" ? undefined : "{}";
        const headers = { ...caller.headers, ...(body ? { "content-type": "application/json" } : {}) };
        const samples = await measure(() => timed(`${stack.base}${path}`, { method: op.method, headers, body }));
        rows.push(summary(`${op.method} ${op.path}`, caller.name, samples));
      }
    }
    const ws = stack.base.replace(/^http/, "ws");
    rows.push(
      summary("WS /ws/realtime/{ticker}", "no key", await measure(() => timedSocket(`${ws}/ws/realtime/${SEGMENT}`))),
    );
    rows.push(
      summary(
        "WS /ws/realtime/{ticker}",
        "read-only key",
        await measure(() => timedSocket(`${ws}/ws/realtime/${SEGMENT}?token=${READ_ONLY}`)),
      ),
    );
    const bare = await withBareApp(async (base) => {
      const cases: ReturnType<typeof summary>[] = [];
      for (let i = 0; i < rows.length; i++)
        cases.push(
          summary("GET /floor", "bare app", await measure(() => timed(`${base}/floor?bytes=2&pad=${SEGMENT}`, {}))),
        );
      return cases;
    });
    const worst = (of: typeof rows, field: "median_ms" | "p95_ms") => Math.max(...of.map((r) => r[field]));
    const over = (of: typeof rows, field: "median_ms" | "p95_ms") => of.filter((r) => r[field] >= TARGET_MS).length;
    return {
      ...benchHeader("long-ticker"),
      runtime: "wrangler dev",
      database: stack.databaseLabel,
      segment_chars: SEGMENT.length,
      runs_per_case: RUNS,
      target_ms: TARGET_MS,
      worst_median_ms: worst(rows, "median_ms"),
      worst_p95_ms: worst(rows, "p95_ms"),
      cases_median_over_target: over(rows, "median_ms"),
      cases_p95_over_target: over(rows, "p95_ms"),
      met: over(rows, "median_ms") === 0,
      bare_app: {
        cases: bare.length,
        worst_median_ms: worst(bare, "median_ms"),
        worst_p95_ms: worst(bare, "p95_ms"),
        cases_median_over_target: over(bare, "median_ms"),
        cases_p95_over_target: over(bare, "p95_ms"),
      },
      routes: rows,
    };
  },
  { vars: { SERVICE_READ_ONLY_API_KEYS: READ_ONLY } },
);
