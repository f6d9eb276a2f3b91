import pg from "pg";
import { isTradingDay, lastClosedSession, UNKNOWN_VENUE } from "../../src/domain/venues";
import { benchHeader, load, percentile } from "./load";
import { queuedScreen } from "./queued-screen";
import { type BenchStack, runBench } from "./stack";

/**
 * `npm run bench:screener`: the daily refresh of the whole seed catalogue (a first run that
 * ingests ten years of every listing, then a second one that finds nothing new), GET
 * /technical/screen uncached over the catalogue (each request a distinct threshold: a cache
 * miss), then the same over 10,000 synthetic listings the bench adds (a year of bars each, their
 * snapshots written by a refresh), and the cached screen under load. Lengths that are not
 * snapshotted (read from the bars) are measured beside the declared one; over the synthetic
 * listings RSI(21) reads more bars than an answer reads at once, and its queued run is timed.
 * Prints JSON.
 */
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const SYNTHETIC = Number(process.env.BENCH_SYNTHETIC_LISTINGS ?? 10_000);
const SYNTHETIC_BARS = 260;
/** The simulators have no limits: the refresh is paced far above a real provider's, so the figures are the service's own. */
const REQUESTS_PER_MINUTE = 60_000;

interface Run {
  id: number;
  status: string;
  duration_seconds: number | null;
  listings: { queued: number; refreshed: number; unchanged: number; failed: number };
  bars_written: number;
  provider_requests: number;
  failures: { ticker: string; reason: string }[];
}

async function refresh(stack: BenchStack, exchanges?: string[]) {
  const started = performance.now();
  const res = await fetch(`${stack.base}/catalogue/refresh`, {
    method: "POST",
    headers: { ...stack.headers, "content-type": "application/json" },
    body: JSON.stringify(exchanges ? { exchanges } : {}),
  });
  if (res.status !== 200) throw new Error(`POST /catalogue/refresh: ${res.status} ${await res.text()}`);
  const { run } = (await res.json()) as { run: Run };
  for (;;) {
    const list = await fetch(`${stack.base}/catalogue/refresh?limit=5`, { headers: stack.headers });
    const found = ((await list.json()) as { runs: Run[] }).runs.find((r) => r.id === run.id);
    if (found?.status === "finished") {
      const seconds = (performance.now() - started) / 1000;
      return {
        listings: found.listings,
        failures: found.failures.slice(0, 5),
        bars_written: found.bars_written,
        provider_requests: found.provider_requests,
        seconds: Number(seconds.toFixed(1)),
        listings_per_second: Number((found.listings.queued / seconds).toFixed(1)),
        provider_requests_per_second: Number((found.provider_requests / seconds).toFixed(1)),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The screens measured: a declared one (from the snapshots), and lengths read from the bars. */
const DECLARED = "indicator=rsi";
const OTHER_LENGTHS = {
  /** Windowed: only its own 31 bars an instrument. */
  windowed: "indicator=sma&period=30",
  /** A recursion: the stored history (at most HISTORY_BARS) an instrument, as every route computes. */
  recursive: "indicator=rsi&period=21",
};
const OTHER_RUNS = Number(process.env.BENCH_OTHER_RUNS ?? 5);

/** GET /technical/screen with a distinct threshold each time (every one a cache miss): ms, ascending. */
async function coldScreens(stack: BenchStack, salt: number, query = DECLARED, runs = COLD_RUNS) {
  const times: number[] = [];
  let sample = { total: 0, screened: 0, skipped: 0 };
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const threshold = (50 + salt + i / 1000).toFixed(3);
    const res = await fetch(`${stack.base}/technical/screen?${query}&operator=lt&value=${threshold}`, {
      headers: stack.headers,
    });
    sample = (await res.json()) as typeof sample;
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`screen: ${res.status} ${JSON.stringify(sample)}`);
  }
  times.sort((a, b) => a - b);
  return {
    query,
    runs,
    instruments_screened: sample.screened,
    skipped: sample.skipped,
    matches_near_50: sample.total,
    p50_ms: Number(percentile(times, 50).toFixed(1)),
    min_ms: Number((times[0] ?? 0).toFixed(1)),
    max_ms: Number((times.at(-1) ?? 0).toFixed(1)),
  };
}

/** The last `n` sessions of listings without a known venue, up to its last closed one. */
function sessions(n: number): string[] {
  const out: string[] = [];
  let t = Date.parse(`${lastClosedSession(UNKNOWN_VENUE, new Date())}T00:00:00Z`);
  while (out.length < n) {
    const d = new Date(t).toISOString().slice(0, 10);
    if (isTradingDay(UNKNOWN_VENUE, d)) out.unshift(d);
    t -= 86_400_000;
  }
  return out;
}

/**
 * Adds `count` instruments with one listing each (no exchange: refreshed with the US close) and a
 * year of bars up to their last session, in the database directly (a wave per listing), so that
 * their refresh asks no provider and only writes their snapshots.
 */
async function addSynthetic(databaseUrl: string, count: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    await client.query(
      `INSERT INTO assets (isin, name, quote_type)
       SELECT 'ZZ' || lpad(n::text, 10, '0'), 'Synthetic ' || n, 'EQUITY' FROM generate_series(1, $1) n
       ON CONFLICT DO NOTHING`,
      [count],
    );
    await client.query(
      `INSERT INTO listings (asset_id, ticker, exchange, currency, name, source, is_primary)
       SELECT a.id, 'SYN' || substr(a.isin, 3), NULL, 'USD', a.name, 'bench', true FROM assets a
       WHERE a.isin LIKE 'ZZ%' ON CONFLICT DO NOTHING`,
    );
    await client.query(
      `INSERT INTO prices_daily (listing_id, date, open, high, low, close, adj_close, volume, data_source)
       SELECT l.id, d.day::date, c - 0.5, c + 1.25, c - 1, c, c, 1000000 + (l.id * 7919 + d.n * 104729) % 250000, 'bench'
       FROM listings l
       CROSS JOIN unnest($1::text[]) WITH ORDINALITY AS d(day, n)
       CROSS JOIN LATERAL (SELECT round((100 + 20 * sin(l.id * 0.37 + d.n / 17.0) + 7 * sin(d.n / 3.1 + l.id))::numeric, 2) AS c) p
       WHERE l.source = 'bench'
       ON CONFLICT DO NOTHING`,
      [sessions(SYNTHETIC_BARS)],
    );
  } finally {
    await client.end();
  }
  return Number(((performance.now() - started) / 1000).toFixed(1));
}

runBench(
  async (stack) => {
    const first = await refresh(stack);
    const again = await refresh(stack);
    const catalogue = await coldScreens(stack, 0);
    const otherCatalogue = {
      windowed: await coldScreens(stack, 0, OTHER_LENGTHS.windowed, OTHER_RUNS),
      recursive: await coldScreens(stack, 0, OTHER_LENGTHS.recursive, OTHER_RUNS),
    };
    const insertSeconds = await addSynthetic(stack.databaseUrl, SYNTHETIC);
    const synthetic = await refresh(stack, ["OTHER"]);
    const large = await coldScreens(stack, 1);
    const otherLarge = {
      windowed: await coldScreens(stack, 1, OTHER_LENGTHS.windowed, OTHER_RUNS),
      // Past the bars an answer reads at once (SYNC_SCREEN_MAX_BARS): the day's queued run.
      recursive_queued: await queuedScreen(stack, OTHER_LENGTHS.recursive),
    };
    const cachedUrl = `${stack.base}/technical/screen?indicator=rsi&operator=lt&value=50`;
    const cached = await load({
      pathOf: () => cachedUrl,
      headers: stack.headers,
      concurrency: CONCURRENCY,
      durationMs: DURATION_MS,
    });
    return {
      ...benchHeader("screener"),
      database: stack.databaseLabel,
      cache: stack.cacheLabel,
      refresh: {
        requests_per_minute_setting: REQUESTS_PER_MINUTE,
        first_run: first,
        same_day_again: again,
        synthetic_listings: {
          added: SYNTHETIC,
          bars_each: SYNTHETIC_BARS,
          insert_seconds: insertSeconds,
          ...synthetic,
        },
      },
      screen: { indicator: "rsi", params: { length: 14 } },
      uncached_catalogue: { ...catalogue, under_50_ms: catalogue.p50_ms < 50 },
      uncached_with_synthetic: { ...large, under_250_ms: large.p50_ms < 250 },
      other_lengths_uncached: { catalogue: otherCatalogue, with_synthetic: otherLarge },
      cached,
    };
  },
  { vars: { REFRESH_REQUESTS_PER_MINUTE: String(REQUESTS_PER_MINUTE) } },
);
