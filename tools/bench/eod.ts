import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startSandbox } from "../dev/sandbox";
import { startLocalStack } from "../dev/stack";
import { killGroup, startWrangler, waitForHttp } from "../dev/wrangler";
import { load } from "./load";
import { freePort } from "../net";

/**
 * `npm run bench`: ingestion of ten years for fresh listings (bars per second through the Worker,
 * the Neon driver and the proxy), then GET /eod/{t}?period=1y served from the cache and from
 * Postgres, side by side with the floor route (a constant body of the same size through the same
 * middleware). Prints one JSON document; `--out FILE` also writes it.
 * Postgres is DATABASE_URL when set (else a fresh embedded PGlite), the cache Redis when REDIS_URL
 * is set (through the Upstash bridge, else the in-isolate LRU); the answer says which.
 */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const INGEST_TICKERS = ["AAPL", "SAP.DE", "MC.PA"];
const EOD_TICKER = "MC.PA";
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);

/** Puts listings back to "never ingested" so each ingestion is a fresh ten-year one. */
async function resetListings(databaseUrl: string, tickers: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const ids = (await client.query<{ id: number }>("select id from listings where ticker = any($1)", [tickers])).rows.map((r) => r.id);
    await client.query("delete from prices_daily where listing_id = any($1)", [ids]);
    await client.query("update listings set delayed_symbol = null, delayed_symbol_checked_at = null where id = any($1)", [ids]);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const outIndex = process.argv.indexOf("--out");
  const outFile = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "mds-bench-"));
  const stack = await startLocalStack({ databaseUrl: process.env.DATABASE_URL, redisUrl: process.env.REDIS_URL, dataDir });
  const sandbox = await startSandbox({});
  const key = `bench-${randomBytes(16).toString("hex")}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = startWrangler({ root: ROOT, port, quiet: true, vars: { ...stack.vars, ...sandbox.vars, SERVICE_API_KEYS: key, BENCH_ROUTES: "true" } });
  const headers = { "X-API-KEY": key };
  try {
    await waitForHttp(`${base}/health`, 90_000);
    await resetListings(stack.vars.DATABASE_URL ?? "", INGEST_TICKERS);
    await fetch(`${base}/cache/clear`, { method: "POST", headers });

    const ingestion = [];
    for (const ticker of INGEST_TICKERS) {
      const t0 = performance.now();
      const res = await fetch(`${base}/historical/ingest`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ tickers: [ticker] }) });
      const seconds = (performance.now() - t0) / 1000;
      const body = (await res.json()) as { results: { rows_written: number; source: string }[] };
      const bars = body.results[0]?.rows_written ?? 0;
      ingestion.push({ ticker, source: body.results[0]?.source ?? null, bars, seconds: Number(seconds.toFixed(3)), bars_per_second: Math.round(bars / seconds) });
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
    const run = (pathOf: (i: number) => string) => load({ pathOf, headers, concurrency: CONCURRENCY, durationMs: DURATION_MS });

    const floor = await run(() => `${base}/__bench/floor?bytes=${bytes}`);
    const cached = await run(() => path);
    const database = await run((i) => `${base}/eod/${EOD_TICKER}?from=${oneYearAgo}&to=${futureDay(i)}`);
    const ratio = Number((cached.rps / floor.rps).toFixed(3));
    const report = {
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
    const json = JSON.stringify(report, null, 2);
    console.log(json);
    if (outFile) writeFileSync(outFile, `${json}\n`);
  } finally {
    killGroup(child);
    await sandbox.stop();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error("bench failed:", err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
