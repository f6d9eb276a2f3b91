import { execFileSync } from "node:child_process";
import { SIM_SYMBOLS } from "../sandbox/market-data";
import type { MinuteBar } from "../sandbox/minute-path";
import { benchHeader, percentile } from "./load";
import { type BenchStack, runBench } from "./stack";
import { openTickClients, tickKey } from "./tick-clients";

/**
 * `npm run bench:load`: the service under load and over time, against the local stack.
 * 1. Load: 200 clients, back to back for 60 s, on a mix of read routes (answers cached as in
 *    production after a first request): errors and p50/p99 per route.
 * 2. Soak: 1,000 WebSocket clients on 10 tickers for 5 minutes, the stream provider dropping every
 *    connection once a minute: ticks lost (an update the simulator sent that a client of its ticker
 *    never received), reconnections, and the memory of each process at the start and the end.
 * BENCH_LOAD_MS, BENCH_SOAK_MS and BENCH_SOCKETS shorten a trial run.
 */
const LOAD_CLIENTS = 200;
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 60_000);
const SOAK_MS = Number(process.env.BENCH_SOAK_MS ?? 300_000);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const DROP_EVERY_MS = 60_000;
/**
 * The stated bound: the service's processes (wrangler's group: workerd and wrangler) grow by at most
 * this over the soak, after the warm-up. The bench process is reported but not bound: it holds the
 * simulators, the Neon proxy and every tick each client received (some 300,000 records).
 */
const MEMORY_GROWTH_BOUND_MB = 64;

const TICKERS = ["AAPL", "MSFT", "NVDA", "AMZN", "GOOGL", "META", "TSLA", "JPM", "MC.PA", "SAP.DE"];
const ROUTES: { name: string; path: (t: string) => string }[] = [
  { name: "GET /health", path: () => "/health" },
  { name: "GET /eod/{ticker}", path: (t) => `/eod/${t}?period=1y` },
  { name: "GET /technical/{ticker}", path: (t) => `/technical/${t}?indicator=rsi&period=14` },
  { name: "GET /technical/{ticker}/multi", path: (t) => `/technical/${t}/multi` },
  { name: "GET /listings", path: (t) => `/listings?ticker=${t}` },
  { name: "GET /quote/{ticker}", path: (t) => `/quote/${t}` },
  { name: "GET /database/ticker/{ticker}", path: (t) => `/database/ticker/${t}` },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, dp = 1) => Number(x.toFixed(dp));

/** Resident memory (MB) of the bench process (Node: simulators, embedded Postgres, Redis bridge) and of wrangler's process group (wrangler, workerd). */
function memory(stack: BenchStack): Record<string, number> {
  const out: Record<string, number> = { bench_process_mb: round(process.memoryUsage().rss / 2 ** 20) };
  if (stack.processGroup === undefined) return out;
  const ps = execFileSync("ps", ["-o", "rss=,comm=", "-g", String(stack.processGroup)], { encoding: "utf8" });
  for (const line of ps.trim().split("\n")) {
    const [rss, ...name] = line.trim().split(/\s+/);
    const key = `${name.join(" ")}_mb`;
    out[key] = round((out[key] ?? 0) + Number(rss) / 1024);
  }
  return out;
}

async function loadPhase(stack: BenchStack) {
  // Warm each answer once, as a first client would (ingestions and cache fills are not what this measures).
  for (const t of TICKERS) for (const r of ROUTES) await fetch(stack.base + r.path(t), { headers: stack.headers });
  const stats = new Map<string, { latencies: number[]; errors: number; statuses: Record<string, number> }>(
    ROUTES.map((r) => [r.name, { latencies: [], errors: 0, statuses: {} }]),
  );
  let next = 0;
  const until = performance.now() + LOAD_MS;
  const client = async () => {
    while (performance.now() < until) {
      const i = next++;
      const route = ROUTES[i % ROUTES.length] as (typeof ROUTES)[number];
      const ticker = TICKERS[Math.floor(i / ROUTES.length) % TICKERS.length] as string;
      const t0 = performance.now();
      const res = await fetch(stack.base + route.path(ticker), { headers: stack.headers }).catch(() => undefined);
      await res?.arrayBuffer().catch(() => undefined);
      const s = stats.get(route.name);
      if (!s) continue;
      s.latencies.push(performance.now() - t0);
      const status = String(res?.status ?? "network error");
      s.statuses[status] = (s.statuses[status] ?? 0) + 1;
      if (res?.status !== 200) s.errors += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: LOAD_CLIENTS }, client));
  const seconds = (performance.now() - started) / 1000;
  const routes = Object.fromEntries(
    [...stats].map(([name, s]) => {
      s.latencies.sort((a, b) => a - b);
      return [
        name,
        {
          requests: s.latencies.length,
          errors: s.errors,
          statuses: s.statuses,
          p50_ms: round(percentile(s.latencies, 50)),
          p99_ms: round(percentile(s.latencies, 99)),
        },
      ];
    }),
  );
  const total = [...stats.values()].reduce((n, s) => n + s.latencies.length, 0);
  const errors = [...stats.values()].reduce((n, s) => n + s.errors, 0);
  return {
    clients: LOAD_CLIENTS,
    seconds: round(seconds),
    requests: total,
    rps: round(total / seconds),
    errors,
    routes,
  };
}

/** Updates the stream simulator sent, by stream symbol, then minute|close|volume → when (recorded only while soaking). */
const sent = new Map<string, Set<string>>();
let recording = false;
/** Clients keep receiving past the window, for the last updates' delivery. */
let receiving = false;
const onStreamUpdate = (symbol: string, bar: MinuteBar) => {
  if (!recording) return;
  const key = tickKey(new Date(bar[0] * 1000).toISOString().replace(".000Z", "Z"), bar[4], bar[5]);
  const set = sent.get(symbol) ?? new Set<string>();
  set.add(key);
  sent.set(symbol, set);
};

async function soakPhase(stack: BenchStack) {
  const statusOf = async () =>
    (await (await fetch(`${stack.base}/realtime/status`, { headers: stack.headers })).json()) as {
      subscriptions?: { ticker: string; symbol?: string; stream_symbol?: string }[];
      ws_connections: Record<string, number>;
    };
  // received[i]: the updates client i got; client i watches TICKERS[i % TICKERS.length].
  const received: Set<string>[] = Array.from({ length: SOCKETS }, () => new Set());
  let closedEarly = 0;
  const t0 = performance.now();
  const sockets = await openTickClients(
    SOCKETS,
    (i) => ({
      url: `${stack.base.replace("http", "ws")}/ws/realtime/${TICKERS[i % TICKERS.length]}`,
      key: stack.headers["X-API-KEY"] ?? "",
    }),
    (i, key) => {
      if (receiving) received[i]?.add(key);
    },
    () => {
      if (recording) closedEarly += 1;
    },
  );
  const connectSeconds = (performance.now() - t0) / 1000;
  await sleep(5000); // every stream up and ticking
  const memoryAtStart = memory(stack);

  recording = true;
  receiving = true;
  let drops = 0;
  const soakStart = performance.now();
  while (performance.now() - soakStart < SOAK_MS) {
    await sleep(Math.min(DROP_EVERY_MS, SOAK_MS - (performance.now() - soakStart)));
    if (performance.now() - soakStart >= SOAK_MS) break;
    // The provider drops every live connection, as a real one does on a deploy or a network blip.
    await fetch(`${stack.control.stream}/__sandbox/stream`, {
      method: "POST",
      body: JSON.stringify({ action: "drop" }),
    });
    drops += 1;
  }
  recording = false;
  await sleep(3000); // the last updates' delivery
  receiving = false;
  const memoryAtEnd = memory(stack);
  const status = await statusOf();

  // An update of a stream symbol belongs to the ticker whose stream it is; every client of that ticker must have it.
  const streamSymbolOf = (ticker: string) =>
    [...SIM_SYMBOLS.values()].find((s) => s.symbol === ticker)?.streamSymbol ?? "";
  let expected = 0;
  let lost = 0;
  received.forEach((mine, i) => {
    const updates = sent.get(streamSymbolOf(TICKERS[i % TICKERS.length] as string)) ?? new Set<string>();
    for (const u of updates) {
      expected += 1;
      if (!mine.has(u)) lost += 1;
    }
  });
  for (const ws of sockets) ws.close();
  for (const t of TICKERS)
    await fetch(`${stack.base}/realtime/subscribe/${t}`, { method: "DELETE", headers: stack.headers });
  const growth = Object.fromEntries(
    Object.entries(memoryAtEnd).map(([k, v]) => [k, round(v - (memoryAtStart[k] ?? 0))]),
  );
  return {
    sockets: SOCKETS,
    tickers: TICKERS.length,
    connect_seconds: round(connectSeconds, 2),
    connections_counted_by_status: Object.values(status.ws_connections).reduce((a, b) => a + b, 0),
    seconds: round(SOAK_MS / 1000),
    provider_drops: drops,
    updates_sent: [...sent.values()].reduce((n, s) => n + s.size, 0),
    deliveries_expected: expected,
    ticks_lost: lost,
    clients_closed_during_soak: closedEarly,
    memory_mb: { start: memoryAtStart, end: memoryAtEnd, growth },
    memory_growth_bound_mb: MEMORY_GROWTH_BOUND_MB,
    memory_within_bound: Object.entries(growth)
      .filter(([process]) => process !== "bench_process_mb")
      .every(([, g]) => g <= MEMORY_GROWTH_BOUND_MB),
  };
}

runBench(
  async (stack) => ({
    ...benchHeader("load"),
    database: stack.databaseLabel,
    cache: stack.cacheLabel,
    load: await loadPhase(stack),
    soak: await soakPhase(stack),
  }),
  { onStreamUpdate },
);
