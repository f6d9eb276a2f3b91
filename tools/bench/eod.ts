import { benchHeader, type InterleavedResult, interleave, type LoadResult, load, median } from "./load";
import { resetListings, runBench, usageRowsSince, withBareApp } from "./stack";

/**
 * `npm run bench`: ingestion of ten years for fresh listings (bars per second through the Worker,
 * the Neon driver and the proxy), then GET /eod/{t}?period=1y served from the cache and from
 * Postgres. The cached /eod is measured in turns with the floor route (a constant body of the same
 * size through the same middleware) and a bare Hono app (tools/bench/bare) serving that body with
 * no middleware, alone and after a call of a counter object (as the key's KeyMeter); the floor and the cached /eod
 * are reported as ratios of both. The usage rows written are counted against the requests answered.
 * Prints one JSON document; `--out FILE` also writes it.
 * Postgres is DATABASE_URL when set (else a fresh embedded PGlite), the cache Redis when REDIS_URL
 * is set (through the Upstash bridge, else the in-isolate LRU); the answer says which.
 */
const INGEST_TICKERS = ["AAPL", "SAP.DE", "MC.PA"];
const EOD_TICKER = "MC.PA";
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
/**
 * The comparison with the bare app: ROUNDS rounds of ROUND_MS per target, in turns (see
 * `interleave`; a multiple of the four targets balances their order), each after SETTLE_MS of quiet:
 * longer than the usage queue's batch timeout (2 s), so that one target's usage rows are written
 * before the next target is measured.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 1500);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 2500);

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
  // Answers are asked for unencoded: locally Miniflare plays Cloudflare's front line and gzips JSON
  // answers for a client that accepts it, in the measured runtime, where on Cloudflare that happens
  // outside the Worker; and the real JSON of /eod costs that gzip many times what the floor's constant
  // body does, so it would be charged to the cached /eod what is no work of the service's.
  const plain = { ...headers, "accept-encoding": "identity" };
  // Each target is warmed for a second first (JIT, connections), then measured; every answer the
  // service gave, warm-up included, is counted for the usage-log check.
  let answered = 0;
  const countAnswers = (r: LoadResult) => {
    answered += r.requests - r.errors;
  };
  const warm = async (pathOf: (i: number) => string) =>
    load({ pathOf: (i) => pathOf(i + 1_000_000), headers: plain, concurrency: CONCURRENCY, durationMs: 1000 });

  // /health (public, no key) against the bare app answering a body of its size.
  const healthBytes = Buffer.byteLength(await (await fetch(`${base}/health`)).text());
  const since = new Date();
  const { bare, bare_limited, floor, cached, health, bare_health } = await withBareApp(async (bareBase) => {
    const targets = {
      bare: () => `${bareBase}/floor?bytes=${bytes}`,
      bare_limited: () => `${bareBase}/floor-limited?bytes=${bytes}`,
      floor: () => `${base}/__bench/floor?bytes=${bytes}`,
      cached: () => path,
    };
    await warm(targets.bare);
    await warm(targets.bare_limited);
    countAnswers(await warm(targets.floor));
    countAnswers(await warm(targets.cached));
    const measured = await interleave({
      targets,
      headers: plain,
      concurrency: CONCURRENCY,
      rounds: ROUNDS,
      roundMs: ROUND_MS,
      settleMs: SETTLE_MS,
    });
    countAnswers(measured.floor);
    countAnswers(measured.cached);
    // /health as a monitor asks it (no key), in turns with the bare app answering a body of its size.
    const probes = { health: () => `${base}/health`, bare_health: () => `${bareBase}/floor?bytes=${healthBytes}` };
    const anonymous = { "accept-encoding": "identity" };
    const warmAnonymous = (pathOf: (i: number) => string) =>
      load({ pathOf, headers: anonymous, concurrency: CONCURRENCY, durationMs: 1000 });
    await warmAnonymous(probes.bare_health);
    countAnswers(await warmAnonymous(probes.health));
    const probed = await interleave({
      targets: probes,
      headers: anonymous,
      concurrency: CONCURRENCY,
      rounds: ROUNDS,
      roundMs: ROUND_MS,
      settleMs: SETTLE_MS,
    });
    countAnswers(probed.health);
    return { ...measured, ...probed };
  });
  const uncached = (i: number) => `${base}/eod/${EOD_TICKER}?from=${oneYearAgo}&to=${futureDay(i)}`;
  countAnswers(await warm(uncached));
  const database = await load({ pathOf: uncached, headers: plain, concurrency: CONCURRENCY, durationMs: DURATION_MS });
  countAnswers(database);
  // Each ratio is the median of its rounds' ratios (interleave: the two were measured seconds apart).
  const over = (a: InterleavedResult, b: InterleavedResult) =>
    Number(median(a.rounds_rps.map((rps, r) => rps / (b.rounds_rps[r] ?? Number.NaN))).toFixed(3));
  const ratio = over(cached, floor);
  // Every request answered must have its usage row once the queue has drained (the bare app logs none).
  const logged = await usageRowsSince(
    stack.databaseUrl,
    since,
    ["/__bench/floor", "/eod/:ticker", "/health"],
    answered,
  );
  return {
    ...benchHeader("eod"),
    database: stack.databaseLabel,
    cache: stack.cacheLabel,
    ingestion: { listings: ingestion, median_bars_per_second: rates[Math.floor(rates.length / 2)] ?? 0 },
    eod_1y: {
      ticker: EOD_TICKER,
      body_bytes: bytes,
      concurrency: CONCURRENCY,
      database_duration_ms: DURATION_MS,
      floor,
      cached,
      database,
      cached_rps_over_floor_rps: ratio,
      cached_within_2x_of_floor: ratio >= 0.5,
    },
    against_bare_hono: {
      rounds: ROUNDS,
      round_ms: ROUND_MS,
      settle_ms: SETTLE_MS,
      bare,
      floor_over_bare: over(floor, bare),
      cached_eod_over_bare: over(cached, bare),
      floor_target_0_9_met: over(floor, bare) >= 0.9,
      cached_eod_target_0_85_met: over(cached, bare) >= 0.85,
      // One call of a counter object alone (as the key's KeyMeter each keyed request calls), and the
      // service against a bare app that makes it too: what the service's own work costs beside it.
      bare_with_key_meter: bare_limited,
      meter_over_bare: over(bare_limited, bare),
      floor_over_bare_with_meter: over(floor, bare_limited),
      cached_eod_over_bare_with_meter: over(cached, bare_limited),
    },
    health_against_bare: {
      body_bytes: healthBytes,
      health,
      bare: bare_health,
      health_over_bare: over(health, bare_health),
      health_target_0_85_met: over(health, bare_health) >= 0.85,
    },
    usage_log: { requests_answered: answered, rows_written: logged, none_lost: logged === answered },
  };
});
