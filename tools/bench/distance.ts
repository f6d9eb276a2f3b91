import pg from "pg";
import WebSocket from "ws";
import { type DelayProxy, startDelayProxy } from "../dev/delay-proxy";
import { median } from "./load";
import { resetListings, runBench } from "./stack";

/**
 * `npm run bench:distance`: what the distance to the database and the cache costs each route family.
 * The Worker reaches Postgres (through Neon's local endpoints) and the cache (the Upstash REST
 * bridge) through proxies that hold every packet DISTANCE_MS each way (default 40: an 80 ms round
 * trip, Europe to the US east coast), and each family is timed with no delay and with it (median of
 * RUNS each). The round trips a request spends on the way are its added latency over the round
 * trip; the proxies also count where they went: database connections opened, database exchanges,
 * cache exchanges. Needs REDIS_URL (the in-isolate cache has no distance); Postgres is DATABASE_URL
 * when set, else the embedded PGlite. Prints one JSON document; `--out FILE` also writes it.
 */
const DISTANCE_MS = Number(process.env.DISTANCE_MS ?? 40);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROUND_TRIP_MS = 2 * DISTANCE_MS;

if (!process.env.REDIS_URL) {
  console.error("bench:distance needs REDIS_URL (the cache's distance is half of what it measures)");
  process.exit(1);
}

interface Proxies {
  db: DelayProxy;
  cache: DelayProxy;
}
let proxies: Proxies | undefined;

/**
 * The Worker's addresses of Postgres (Neon's local endpoints: SQL over HTTP and the WebSocket
 * proxy, on one port) and of the cache, each behind a delaying proxy of its own.
 */
async function around(vars: Record<string, string>): Promise<Record<string, string>> {
  const ws = vars.NEON_WS_PROXY ?? "";
  const http = new URL(vars.NEON_HTTP_ENDPOINT ?? "");
  const cacheUrl = new URL(vars.UPSTASH_REDIS_REST_URL ?? "");
  const db = await startDelayProxy({ host: http.hostname, port: Number(http.port) });
  const cache = await startDelayProxy({ host: cacheUrl.hostname, port: Number(cacheUrl.port) });
  proxies = { db, cache };
  cacheUrl.port = String(cache.port);
  http.port = String(db.port);
  return {
    ...vars,
    NEON_HTTP_ENDPOINT: http.toString(),
    NEON_WS_PROXY: ws.replace(/:(\d+)/, `:${db.port}`),
    UPSTASH_REDIS_REST_URL: cacheUrl.toString().replace(/\/$/, ""),
  };
}

interface Family {
  name: string;
  /** Work before each timed call that must not be counted (a cache to empty, a listing to reset). */
  before?: (run: number) => Promise<void>;
  /** The timed call: resolves when the answer (or the socket's first message) is in. */
  call: (run: number) => Promise<number>;
}

interface Measured {
  family: string;
  latency_ms: { near: number; far: number };
  /** Added latency over the simulated round trip. */
  round_trips: number;
  /** At the distance, from the proxies (medians over the runs). */
  database: { connections: number; round_trips: number };
  cache: { round_trips: number };
}

runBench(
  async (stack) => {
    const { base, headers } = stack;
    const json = { ...headers, "content-type": "application/json", "accept-encoding": "identity" };
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`, { headers: json });
      const body = await res.text();
      if (res.status >= 500) throw new Error(`${path}: HTTP ${res.status} ${body.slice(0, 400)}`);
      return res.status;
    };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, { method: "POST", headers: json, body: JSON.stringify(body) });
      const text = await res.text();
      if (res.status >= 500) throw new Error(`${path}: HTTP ${res.status} ${text.slice(0, 400)}`);
      return res.status;
    };
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    const isins = (await client.query<{ isin: string }>("select isin from assets order by isin limit 100")).rows.map(
      (r) => r.isin,
    );
    await client.end();

    // What the families read: prices of MC.PA, the deep fundamentals of SAP.DE.
    await post("/historical/ingest", { tickers: ["MC.PA"] });
    await get("/fundamental/deep?ticker=SAP.DE&refresh=true");
    const future = (i: number) => new Date(Date.now() + (i + 2) * 86_400_000).toISOString().slice(0, 10);
    const INGESTED = ["AIR.PA", "BNP.PA", "OR.PA", "SAN.PA", "SU.PA", "DG.PA", "RI.PA", "KER.PA"];
    let isinAt = 0;
    let ingestAt = 0;
    let futureAt = 0;
    const families: Family[] = [
      { name: "GET /health", call: () => get("/health") },
      {
        name: "cached answer held at the location (GET /eod/MC.PA?period=1y, edge cache)",
        before: async () => void (await get("/eod/MC.PA?period=1y")),
        call: () => get("/eod/MC.PA?period=1y"),
      },
      {
        // A parameter the route ignores makes a URL the location's cache has not seen, with the
        // same answer in the shared cache (Upstash): what a caller in another city gets.
        name: "cached answer in the shared cache only (GET /eod/MC.PA?period=1y&v=n)",
        before: async () => void (await get("/eod/MC.PA?period=1y")),
        call: (run) => get(`/eod/MC.PA?period=1y&v=${Date.now()}-${run}`),
      },
      {
        name: "uncached single-listing read (GET /assets/by-isin/{isin})",
        call: () => get(`/assets/by-isin/${isins[isinAt++ % isins.length]}`),
      },
      {
        name: "/eod from the database (GET /eod/MC.PA, a window not cached)",
        // The cache is Redis, kept between runs of the benchmark: emptied for the ticker first.
        before: async () => void (await post("/cache/clear/MC.PA", {})),
        call: () => get(`/eod/MC.PA?from=2025-01-02&to=${future(futureAt++)}`),
      },
      {
        name: "/eod with an ingestion (GET /eod/{t}?period=1y of a listing never ingested)",
        before: async () => {
          const ticker = INGESTED[ingestAt % INGESTED.length] as string;
          await resetListings(stack.databaseUrl, [ticker]);
          await post(`/cache/clear/${ticker}`, {});
        },
        call: () => get(`/eod/${INGESTED[ingestAt++ % INGESTED.length]}?period=1y`),
      },
      {
        // Kept in Upstash for a day once fetched (and at the location, which a new URL misses):
        // the listing is resolved in the database, then the document read from the cache.
        name: "fundamentals document cached in Upstash only (GET /fundamental/deep?ticker=SAP.DE&v=n)",
        call: (run) => get(`/fundamental/deep?ticker=SAP.DE&v=${Date.now()}-${run}`),
      },
      {
        name: "a write (POST /historical/ingest of a listing up to date)",
        call: () => post("/historical/ingest", { tickers: ["MC.PA"] }),
      },
      {
        name: "WebSocket subscribe (WS /ws/realtime/MC.PA, to the first message)",
        call: () =>
          new Promise<number>((resolve, reject) => {
            const key = headers["X-API-KEY"] ?? "";
            const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws/realtime/MC.PA`, {
              headers: { "X-API-KEY": key },
            });
            ws.once("message", () => {
              ws.close();
              resolve(101);
            });
            ws.once("error", reject);
          }),
      },
    ];

    const p = proxies as Proxies;
    const timeOf = async (f: Family, run: number) => {
      await f.before?.(run);
      p.db.reset();
      p.cache.reset();
      const t0 = performance.now();
      await f.call(run);
      const ms = performance.now() - t0;
      return { ms, db: p.db.counts(), cache: p.cache.counts() };
    };
    const results: Measured[] = [];
    for (const f of families) {
      const near: number[] = [];
      const far: { ms: number; db: { connections: number; roundTrips: number }; cache: { roundTrips: number } }[] = [];
      // One untimed call first: the isolate and the paths it takes are warm for both measurements.
      p.db.delayMs = 0;
      p.cache.delayMs = 0;
      await timeOf(f, -1);
      for (let run = 0; run < RUNS; run++) near.push((await timeOf(f, run)).ms);
      p.db.delayMs = DISTANCE_MS;
      p.cache.delayMs = DISTANCE_MS;
      for (let run = 0; run < RUNS; run++) far.push(await timeOf(f, run));
      const nearMs = median(near);
      const farMs = median(far.map((x) => x.ms));
      results.push({
        family: f.name,
        latency_ms: { near: Math.round(nearMs), far: Math.round(farMs) },
        round_trips: Number(((farMs - nearMs) / ROUND_TRIP_MS).toFixed(1)),
        database: {
          connections: median(far.map((x) => x.db.connections)),
          round_trips: median(far.map((x) => x.db.roundTrips)),
        },
        cache: { round_trips: median(far.map((x) => x.cache.roundTrips)) },
      });
    }
    await p.db.close();
    await p.cache.close();
    return {
      benchmark: "distance",
      database: stack.databaseLabel,
      cache: stack.cacheLabel,
      simulated_round_trip_ms: ROUND_TRIP_MS,
      runs: RUNS,
      results,
    };
  },
  { around },
);
