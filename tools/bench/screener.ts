import { cpus } from "node:os";
import pg from "pg";
import { load, percentile } from "./load";
import { runBench } from "./stack";

/**
 * `npm run bench:screener`: ingests the whole seed catalogue (ten years each), then times
 * GET /technical/screen over it uncached (each request a distinct threshold, so a cache miss that
 * reads every candidate's bars and computes) and cached (one URL under load). Prints JSON.
 */
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);

async function catalogueTickers(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (
      await client.query<{ ticker: string }>("select distinct ticker from listings where is_active order by ticker")
    ).rows.map((r) => r.ticker);
  } finally {
    await client.end();
  }
}

runBench(async (stack) => {
  const { base, headers } = stack;
  const tickers = await catalogueTickers(stack.databaseUrl);
  const t0 = performance.now();
  let written = 0;
  for (let i = 0; i < tickers.length; i += 20) {
    const res = await fetch(`${base}/historical/ingest`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ tickers: tickers.slice(i, i + 20) }),
    });
    written += ((await res.json()) as { rows_written: number }).rows_written;
  }
  const ingestSeconds = (performance.now() - t0) / 1000;

  const cold: number[] = [];
  let sample: { total: number; screened: number } = { total: 0, screened: 0 };
  for (let i = 0; i < COLD_RUNS; i++) {
    const started = performance.now();
    const res = await fetch(`${base}/technical/screen?indicator=rsi&operator=lt&value=${(50 + i / 1000).toFixed(3)}`, {
      headers,
    });
    sample = (await res.json()) as typeof sample;
    cold.push(performance.now() - started);
  }
  cold.sort((a, b) => a - b);
  const cachedUrl = `${base}/technical/screen?indicator=rsi&operator=lt&value=50`;
  const cached = await load({ pathOf: () => cachedUrl, headers, concurrency: CONCURRENCY, durationMs: DURATION_MS });
  const p50 = Number(percentile(cold, 50).toFixed(1));
  return {
    bench: "screener",
    at: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length },
    database: stack.databaseLabel,
    cache: stack.cacheLabel,
    catalogue: { tickers: tickers.length, bars_ingested: written, ingest_seconds: Number(ingestSeconds.toFixed(1)) },
    screen: {
      indicator: "rsi",
      params: { length: 14 },
      instruments_screened: sample.screened,
      matches_at_50: sample.total,
    },
    uncached: {
      runs: COLD_RUNS,
      p50_ms: p50,
      min_ms: Number((cold[0] ?? 0).toFixed(1)),
      max_ms: Number((cold.at(-1) ?? 0).toFixed(1)),
      under_300_ms: p50 < 300,
    },
    cached,
  };
});
