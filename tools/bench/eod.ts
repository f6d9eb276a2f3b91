import { cpus } from "node:os";
import { load } from "./load";
import { resetListings, runBench, usageRowsSince, withBareApp } from "./stack";

/**
 * `npm run bench`: ingestion of ten years for fresh listings (bars per second through the Worker,
 * the Neon driver and the proxy), then GET /eod/{t}?period=1y served from the cache and from
 * Postgres, side by side with the floor route (a constant body of the same size through the same
 * middleware) and a bare Hono app (tools/bench/bare) serving that body with no middleware at all.
 * The floor and the cached /eod are reported as ratios of the bare app; the usage rows written are
 * counted against the requests sent. Prints one JSON document; `--out FILE` also writes it.
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
  // Each target is warmed for a second first (JIT, connections), then measured; every answer the
  // service gave, warm-up included, is counted for the usage-log check.
  let answered = 0;
  const run = async (pathOf: (i: number) => string, ofService = true) => {
    const warm = await load({
      pathOf: (i) => pathOf(i + 1_000_000),
      headers,
      concurrency: CONCURRENCY,
      durationMs: 1000,
    });
    const measured = await load({ pathOf, headers, concurrency: CONCURRENCY, durationMs: DURATION_MS });
    if (ofService) answered += warm.requests - warm.errors + measured.requests - measured.errors;
    return measured;
  };

  const since = new Date();
  const bare = await withBareApp((bareBase) => run(() => `${bareBase}/floor?bytes=${bytes}`, false));
  const floor = await run(() => `${base}/__bench/floor?bytes=${bytes}`);
  const cached = await run(() => path);
  const database = await run((i) => `${base}/eod/${EOD_TICKER}?from=${oneYearAgo}&to=${futureDay(i)}`);
  const ratio = Number((cached.rps / floor.rps).toFixed(3));
  const ofBare = (x: number) => Number((x / bare.rps).toFixed(3));
  // Every request answered must have its usage row once the queue has drained (the bare app logs none).
  const logged = await usageRowsSince(stack.databaseUrl, since, ["/__bench/floor", "/eod/:ticker"], answered);
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
    against_bare_hono: {
      bare,
      floor_over_bare: ofBare(floor.rps),
      cached_eod_over_bare: ofBare(cached.rps),
      floor_target_0_9_met: ofBare(floor.rps) >= 0.9,
      cached_eod_target_0_85_met: ofBare(cached.rps) >= 0.85,
    },
    usage_log: { requests_answered: answered, rows_written: logged, none_lost: logged === answered },
  };
});
