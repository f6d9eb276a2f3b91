import { cpus } from "node:os";
import { load } from "./load";
import { resetListings, runBench } from "./stack";

/**
 * `npm run bench`: ingestion of ten years for fresh listings (bars per second through the Worker,
 * the Neon driver and the proxy), then GET /eod/{t}?period=1y served from the cache and from
 * Postgres, side by side with the floor route (a constant body of the same size through the same
 * middleware). Prints one JSON document; `--out FILE` also writes it.
 * Postgres is DATABASE_URL when set (else a fresh embedded PGlite), the cache Redis when REDIS_URL
 * is set (through the Upstash bridge, else the in-isolate LRU); the answer says which.
 */
const INGEST_TICKERS = ["AAPL", "SAP.DE", "MC.PA"];
const EOD_TICKER = "MC.PA";
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);

runBench(async (stack) => {
  const { base, headers } = stack;
  await resetListings(stack.databaseUrl, INGEST_TICKERS);
  await fetch(`${base}/cache/clear`, { method: "POST", headers });

  const ingestion = [];
  for (const ticker of INGEST_TICKERS) {
    const t0 = performance.now();
    const res = await fetch(`${base}/historical/ingest`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ tickers: [ticker] }),
    });
    const seconds = (performance.now() - t0) / 1000;
    const body = (await res.json()) as { results: { rows_written: number; source: string }[] };
    const bars = body.results[0]?.rows_written ?? 0;
    ingestion.push({
      ticker,
      source: body.results[0]?.source ?? null,
      bars,
      seconds: Number(seconds.toFixed(3)),
      bars_per_second: Math.round(bars / seconds),
    });
  }
  const rates = ingestion.map((i) => i.bars_per_second).sort((a, b) => a - b);

  // Warm: the first read of the database fills the cache.
  const path = `${base}/eod/${EOD_TICKER}?period=1y`;
  await fetch(path, { headers });
  const sample = await (await fetch(path, { headers })).text();
  const bytes = Buffer.byteLength(sample);
  const oneYearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  // Each database request names a different end date in the future: the same bars, a cache miss every time.
  const futureDay = (i: number) => new Date(Date.now() + (i + 2) * 86_400_000).toISOString().slice(0, 10);
  const run = (pathOf: (i: number) => string) =>
    load({ pathOf, headers, concurrency: CONCURRENCY, durationMs: DURATION_MS });

  const floor = await run(() => `${base}/__bench/floor?bytes=${bytes}`);
  const cached = await run(() => path);
  const database = await run((i) => `${base}/eod/${EOD_TICKER}?from=${oneYearAgo}&to=${futureDay(i)}`);
  const ratio = Number((cached.rps / floor.rps).toFixed(3));
  return {
    bench: "eod",
    at: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length },
    database: stack.databaseLabel,
    cache: stack.cacheLabel,
    ingestion: { listings: ingestion, median_bars_per_second: rates[Math.floor(rates.length / 2)] ?? 0 },
    eod_1y: {
      ticker: EOD_TICKER,
      body_bytes: bytes,
      concurrency: CONCURRENCY,
      duration_ms: DURATION_MS,
      floor,
      cached,
      database,
      cached_rps_over_floor_rps: ratio,
      cached_within_2x_of_floor: ratio >= 0.5,
    },
  };
});
