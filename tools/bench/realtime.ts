import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STREAM } from "../../src/domain/provider-names";
import { serverMessage } from "../../src/domain/realtime";
import { freePort } from "../net";
import type { MinuteBar } from "../sandbox/minute-path";
import { benchHeader, percentile } from "./load";
import { serveWithMiniflare } from "./miniflare-worker";
import { ROOT, runBench } from "./stack";
import { openTickClients, tickKey } from "./tick-clients";

/**
 * `npm run bench:realtime`: BENCH_CLIENTS (1,000) WebSocket clients on one ticker, spread over a
 * key per thousand (the local stack, the stream simulator at one update a second). For every update the simulator sends during the window, each
 * client must receive the tick: the report gives ticks lost (must be 0) and the tick-to-client
 * latency (from the simulator's send to the client's receipt) p50/p99. The Worker is served by
 * Miniflare itself (one runtime socket per client; `BENCH_RUNTIME=wrangler` puts `wrangler dev`
 * in front, whose proxy runs out of file descriptors near 5,000 clients), and the runtime's CPU
 * time over the window is reported per update: an upper bound of the object's CPU per tick.
 *
 * In the same run, the same number of clients are then held by the floor (tools/bench/bare/
 * broadcast.ts: one object that sends what it is given to every client, nothing else) and sent a
 * tick of the same size once a second: what the runtime on this machine costs whatever the
 * service does (`floor` in the report).
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
 * CPU milliseconds used so far by each of this process's workerd children (the runtimes Miniflare
 * starts), from /proc; null where there is none to read (Linux only; under `wrangler dev` it is a
 * grandchild).
 */
function runtimeCpuMs(): Map<number, number> | null {
  const out = new Map<number, number>();
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
    // Linux counts in clock ticks of 10 ms (USER_HZ 100).
    out.set(Number(pid), (Number(fields[11]) + Number(fields[12])) * 10);
  }
  return out.size ? out : null;
}

/** CPU ms per update of the runtimes read in `after`, less those in `others`, between two readings. */
function cpuPerUpdate(
  before: Map<number, number> | null,
  after: Map<number, number> | null,
  updates: number,
  others?: Map<number, number> | null,
): number | null {
  if (!before || !after || updates === 0) return null;
  let ms = 0;
  for (const [pid, now] of after) if (!others?.has(pid)) ms += now - (before.get(pid) ?? 0);
  return Number((ms / updates).toFixed(1));
}

/** Each sent update's latency to each client, and the deliveries that never came. */
function deliveries(sentAt: Map<string, number>, received: Map<string, number>[]) {
  const latencies: number[] = [];
  let lost = 0;
  for (const [key, at0] of sentAt) {
    for (const mine of received) {
      const at = mine.get(key);
      if (at === undefined) lost += 1;
      else latencies.push(at - at0);
    }
  }
  latencies.sort((a, b) => a - b);
  return {
    deliveries: latencies.length,
    lost,
    latency_ms: {
      p50: Number(percentile(latencies, 50).toFixed(1)),
      p99: Number(percentile(latencies, 99).toFixed(1)),
      max: Number((latencies.at(-1) ?? 0).toFixed(1)),
    },
  };
}

/**
 * The floor: CLIENTS clients of the bare broadcaster, sent `updates` ticks of the service's shape
 * one a second (the simulator's pace), each POSTed to the object, which sends it to everyone.
 */
async function measureFloor(updates: number, serviceRuntimes: Map<number, number> | null) {
  const port = await freePort();
  const worker = await serveWithMiniflare({
    root: ROOT,
    config: "tools/bench/bare/wrangler.broadcast.toml",
    port,
    vars: {},
    logFile: join(tmpdir(), `mds-bench-floor-${process.pid}.log`),
  });
  const base = `http://127.0.0.1:${port}`;
  const received: Map<string, number>[] = Array.from({ length: CLIENTS }, () => new Map());
  let sockets: WebSocket[] = [];
  try {
    sockets = await openTickClients(
      CLIENTS,
      // The bare broadcaster checks no key.
      () => ({ url: `${base.replace("http", "ws")}/`, key: "none" }),
      (i, key, at) => received[i]?.set(key, at),
      () => undefined,
    );
    /** Update i: a tick of the service's shape (minute i of a session), POSTed to the object. */
    const broadcast = async (i: number) => {
      const close = (190 + i / 100).toFixed(2);
      const tick = {
        ticker: TICKER,
        timestamp: new Date(Date.UTC(2026, 0, 2, 14, 30 + i)).toISOString().replace(".000Z", "Z"),
        open: close,
        high: close,
        low: close,
        close,
        volume: 1000 + i,
        source: STREAM,
        exchange: null,
        currency: null,
      } as const;
      const key = tickKey(tick.timestamp, tick.close, tick.volume);
      const at = performance.now();
      const res = await fetch(`${base}/`, {
        method: "POST",
        body: serverMessage("tick", TICKER, tick, null, new Date()),
      });
      if (res.status !== 204) throw new Error(`the floor's broadcast answered ${res.status}`);
      return { key, at };
    };
    // As for the service: the window starts once the last client has seen a first tick (the first
    // broadcast after thousands of accepts is slower, here as there).
    const first = await broadcast(-1);
    for (let i = 0; i < 100 && !received.at(-1)?.has(first.key); i++) await sleep(100);
    const sentAt = new Map<string, number>();
    const cpuBefore = runtimeCpuMs();
    const start = performance.now();
    for (let i = 0; i < updates; i++) {
      await sleep(Math.max(0, start + i * 1000 - performance.now()));
      const { key, at } = await broadcast(i);
      sentAt.set(key, at);
    }
    const cpuAfter = runtimeCpuMs();
    await sleep(2000); // the last updates' delivery
    return {
      ...deliveries(sentAt, received),
      runtime_cpu_ms_per_update: cpuPerUpdate(cpuBefore, cpuAfter, updates, serviceRuntimes),
    };
  } finally {
    for (const ws of sockets) ws.close();
    await worker.stop();
  }
}

runBench(
  async (stack) => {
    const urlOf = (i: number) => ({
      url: `${stack.base.replace("http", "ws")}/ws/realtime/${TICKER}`,
      key: stack.keys[i % stack.keys.length] ?? "",
    });
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

    const service = deliveries(sent, received);
    for (const ws of sockets) ws.close();
    await fetch(`${stack.base}/realtime/subscribe/${TICKER}`, { method: "DELETE", headers: stack.headers });
    // The floor starts once the service holds no client and its runtime and this process have
    // handled the 5,000 closes: nothing of the service's run weighs on the floor's.
    for (let i = 0; i < 300; i++) {
      const now = (await (await fetch(`${stack.base}/realtime/status`, { headers: stack.headers })).json()) as {
        ws_connections: Record<string, number>;
      };
      if (!now.ws_connections[TICKER]) break;
      await sleep(100);
    }
    await sleep(3000);
    const serviceRuntimes = runtimeCpuMs();
    const floor = await measureFloor(sent.size, serviceRuntimes);
    return {
      ...benchHeader("realtime"),
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
      deliveries: service.deliveries,
      ticks_lost: service.lost,
      clients_closed_during_window: closedEarly,
      latency_ms: service.latency_ms,
      p99_under_250_ms: service.latency_ms.p99 < 250,
      runtime_cpu_ms_per_update: cpuPerUpdate(cpuBefore, cpuAfter, sent.size),
      // The bare broadcaster with the same clients, after the service's window (its clients closed).
      floor,
    };
  },
  { onStreamUpdate, keys: KEYS, runtime: RUNTIME },
);
