import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import type { MinuteBar } from "../sandbox/minute-path";
import { percentile } from "./load";
import { runBench } from "./stack";
import { openTickClients, tickKey } from "./tick-clients";

/**
 * `npm run bench:realtime`: BENCH_CLIENTS (1,000) WebSocket clients on one ticker, spread over a
 * key per thousand (the local stack, the stream simulator at one update a second). For every update the simulator sends during the window, each
 * client must receive the tick: the report gives ticks lost (must be 0) and the tick-to-client
 * latency (from the simulator's send to the client's receipt) p50/p99. The Worker is served by
 * Miniflare itself (one runtime socket per client; `BENCH_RUNTIME=wrangler` puts `wrangler dev`
 * in front, whose proxy runs out of file descriptors near 5,000 clients), and the runtime's CPU
 * time over the window is reported per update: an upper bound of the object's CPU per tick.
 */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
/** One key a thousand clients: a key may hold at most 1,000 sockets on a ticker (MAX_SOCKETS_PER_KEY). */
const KEYS = Math.ceil(CLIENTS / 1000);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 20_000);
const TICKER = "AAPL";
const SYMBOL = "NASDAQ:AAPL";

/** One update, as both sides can name it: minute, close and volume. */

const sent = new Map<string, number>();
let recording = false;
const onStreamUpdate = (symbol: string, bar: MinuteBar) => {
  if (!recording || symbol !== SYMBOL) return;
  sent.set(
    tickKey(new Date(bar[0] * 1000).toISOString().replace(".000Z", "Z"), String(bar[4]), bar[5]),
    performance.now(),
  );
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const RUNTIME = process.env.BENCH_RUNTIME === "wrangler" ? "wrangler" : "miniflare";

/**
 * CPU milliseconds used so far by this process's workerd children (the runtime Miniflare starts),
 * from /proc; null where there is none to read (Linux only; under `wrangler dev` it is a grandchild).
 */
function runtimeCpuMs(): number | null {
  let ticks = 0;
  let found = false;
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    const m = /^\d+ \((.*)\) (.*)$/s.exec(stat);
    const fields = m?.[2]?.split(" ") ?? [];
    // After the name: state, ppid, ..., utime (14th field of the line) and stime (15th).
    if (!m?.[1]?.startsWith("workerd") || Number(fields[1]) !== process.pid) continue;
    found = true;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  // Linux counts in clock ticks of 10 ms (USER_HZ 100).
  return found ? ticks * 10 : null;
}

runBench(
  async (stack) => {
    const urlOf = (i: number) =>
      `${stack.base.replace("http", "ws")}/ws/realtime/${TICKER}?token=${stack.keys[i % stack.keys.length]}`;
    const received: Map<string, number>[] = Array.from({ length: CLIENTS }, () => new Map());
    let closedEarly = 0;
    const t0 = performance.now();
    const sockets = await openTickClients(
      CLIENTS,
      urlOf,
      (i, key, at) => received[i]?.set(key, at),
      () => {
        if (recording) closedEarly += 1;
      },
    );
    const connectSeconds = (performance.now() - t0) / 1000;
    // Everyone is streaming once the last client has seen a tick.
    for (let i = 0; i < 100 && (received.at(-1)?.size ?? 0) === 0; i++) await sleep(100);

    const cpuBefore = runtimeCpuMs();
    recording = true;
    await sleep(WINDOW_MS);
    recording = false;
    const cpuAfter = runtimeCpuMs();
    await sleep(2000); // the last updates' delivery
    const status = (await (await fetch(`${stack.base}/realtime/status`, { headers: stack.headers })).json()) as {
      ws_connections: Record<string, number>;
    };

    const latencies: number[] = [];
    let lost = 0;
    for (const [key, sentAt] of sent) {
      for (const mine of received) {
        const at = mine?.get(key);
        if (at === undefined) lost += 1;
        else latencies.push(at - sentAt);
      }
    }
    latencies.sort((a, b) => a - b);
    for (const ws of sockets) ws.close();
    await fetch(`${stack.base}/realtime/subscribe/${TICKER}`, { method: "DELETE", headers: stack.headers });
    const p99 = Number(percentile(latencies, 99).toFixed(1));
    return {
      bench: "realtime",
      at: new Date().toISOString(),
      machine: { node: process.version, cpus: cpus().length },
      database: stack.databaseLabel,
      cache: stack.cacheLabel,
      ticker: TICKER,
      runtime: RUNTIME,
      clients: CLIENTS,
      keys: KEYS,
      connect_seconds: Number(connectSeconds.toFixed(2)),
      clients_counted_by_status: status.ws_connections[TICKER] ?? 0,
      window_ms: WINDOW_MS,
      updates_sent: sent.size,
      deliveries_expected: sent.size * CLIENTS,
      deliveries: latencies.length,
      ticks_lost: lost,
      clients_closed_during_window: closedEarly,
      latency_ms: {
        p50: Number(percentile(latencies, 50).toFixed(1)),
        p99,
        max: Number((latencies.at(-1) ?? 0).toFixed(1)),
      },
      p99_under_250_ms: p99 < 250,
      runtime_cpu_ms_per_update:
        cpuBefore === null || cpuAfter === null || sent.size === 0
          ? null
          : Number(((cpuAfter - cpuBefore) / sent.size).toFixed(1)),
    };
  },
  { onStreamUpdate, keys: KEYS, runtime: RUNTIME },
);
