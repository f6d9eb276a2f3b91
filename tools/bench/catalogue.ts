import pg from "pg";
import { HISTORY_BARS } from "../../src/domain/indicators/history";
import { screenRowPosition } from "../../src/domain/indicators/screen-row";
import { SNAPSHOT_FORMULA, SNAPSHOT_SET } from "../../src/domain/indicators/snapshots";
import { worldInstrument } from "../sandbox/world";
import { benchHeader, percentile } from "./load";
import { queuedScreen } from "./queued-screen";
import { type BenchStack, runBench } from "./stack";

/**
 * `npm run bench:catalogue`: the catalogue at the design size.
 * 1. An import of IMPORTED world instruments (tools/sandbox/world.ts) through POST /assets/import
 *    and the queue, paced at REQUESTS_PER_MINUTE per provider: instruments/s and provider
 *    requests/s (counted by the simulators) against that pace.
 * 2. SYNTHETIC listings inserted directly (one instrument each, with SYNTHETIC_BARS bars, an RSI(14)
 *    snapshot, a screen row and stored figures), then: GET /search p50 over names, tickers and
 *    misspellings; GET /technical/screen and GET /technical/screen/conditions uncached p50 (each
 *    request a new threshold); queued screens of other lengths (SMA(30), RSI(21)): the time their
 *    run of the day takes over every instrument, and an answer from it; the time POST
 *    /catalogue/refresh takes to queue a run of every listing (measured last: the stack stops
 *    before the run is worked).
 * 3. The cost at that size: rows and bytes per stored bar read from the database, extrapolated to
 *    ten years of bars per listing, and the first refresh's duration at the default pace.
 * Prints JSON; one run per database (DATABASE_URL for Postgres, else the embedded PGlite).
 */
const IMPORTED = Number(process.env.BENCH_IMPORTED ?? 1000);
const SYNTHETIC = Number(process.env.BENCH_SYNTHETIC_LISTINGS ?? 100_000);
/** Daily bars of each synthetic listing: enough for SMA(30), few enough to insert 100,000 listings' in minutes. */
const SYNTHETIC_BARS = Number(process.env.BENCH_SYNTHETIC_BARS ?? 40);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
/** A provider's pace for this bench: far below the simulators' capacity, as a real provider's would be. */
const REQUESTS_PER_MINUTE = 3000;
/** The refresh's pace by default (REFRESH_REQUESTS_PER_MINUTE): what a real first run is held to. */
const DEFAULT_PACE = 120;
const TEN_YEARS_OF_SESSIONS = 2520;
/**
 * Delayed-provider requests of a listing's first refresh: the symbol's check (an ISIN search and a
 * short chart), its ten years in one chart, and its earnings. Measured on the sandbox's first
 * refresh: 1,139 requests for 286 listings.
 */
const FIRST_REFRESH_REQUESTS_PER_LISTING = 4;

const json = async (res: Response) => {
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${res.url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
};

/** Requests the simulators have counted so far, per simulator. */
async function simCounts(stack: BenchStack): Promise<{ delayed: number; scraped: number }> {
  const sum = async (url: string) =>
    Object.values((await (await fetch(`${url}/__sandbox/requests`)).json()) as Record<string, number>).reduce(
      (a, b) => a + b,
      0,
    );
  return { delayed: await sum(stack.control.delayed), scraped: await sum(stack.control.scraped) };
}

async function importWorld(stack: BenchStack) {
  const lines = Array.from({ length: IMPORTED }, (_, i) => worldInstrument(5000 + i).isin);
  const before = await simCounts(stack);
  const started = performance.now();
  const res = await fetch(`${stack.base}/assets/import`, {
    method: "POST",
    headers: { ...stack.headers, "content-type": "text/csv" },
    body: ["isin", ...lines].join("\n"),
  });
  const { id } = (await json(res)) as { id: number };
  let state: { status: string; counts: Record<string, number> };
  for (;;) {
    state = (await json(
      await fetch(`${stack.base}/assets/import/${id}?limit=0`, { headers: stack.headers }),
    )) as typeof state;
    if (state.status === "finished") break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const seconds = (performance.now() - started) / 1000;
  const after = await simCounts(stack);
  const delayed = after.delayed - before.delayed;
  return {
    lines: IMPORTED,
    counts: state.counts,
    seconds: Number(seconds.toFixed(1)),
    instruments_per_second: Number((IMPORTED / seconds).toFixed(2)),
    provider_requests: { delayed: delayed, directory: after.scraped - before.scraped },
    delayed_requests_per_second: Number((delayed / seconds).toFixed(1)),
    pace_setting_per_second: REQUESTS_PER_MINUTE / 60,
    within_pace: delayed / seconds <= REQUESTS_PER_MINUTE / 60,
  };
}

/**
 * SYNTHETIC instruments, each with one listing (no venue), inserted directly with what the screens
 * read: an RSI(14) snapshot spread over 20-80 (the single screen's), a last bar, a screen row with
 * every snapshotted value (the same RSI, an SMA(200) within 20 % of the close either way, the
 * others 50) as a refresh writes it, and a market capitalisation spread log-evenly over 100 m to
 * 10 tn.
 */
async function addSynthetic(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    await client.query(
      `INSERT INTO assets (isin, name, quote_type, added_via)
       SELECT 'ZZ' || lpad(n::text, 10, '0'),
              initcap(substr(md5(n::text), 1, 6)) || ' ' || (ARRAY['Holdings','Industries','Bank','Energy','Systems'])[1 + n % 5] || ' ' || n,
              'EQUITY', 'import'
       FROM generate_series(1, $1) n ON CONFLICT DO NOTHING`,
      [SYNTHETIC],
    );
    await client.query(
      `INSERT INTO listings (asset_id, ticker, exchange, currency, name, source, is_primary)
       SELECT a.id, 'S' || substr(a.isin, 7), NULL, 'USD', a.name, 'bench', true FROM assets a
       WHERE a.isin LIKE 'ZZ%' ON CONFLICT DO NOTHING`,
    );
    await client.query(
      `INSERT INTO indicator_snapshots (listing_id, indicator, params, window_bars, formula, value, computable, as_of, window_from)
       SELECT l.id, 'rsi', '{"length":14}', $2, $1,
              20 + (l.id * 7919 % 6000) / 100.0, true, current_date - 1, current_date - 730
       FROM listings l WHERE l.source = 'bench' ON CONFLICT DO NOTHING`,
      [SNAPSHOT_FORMULA, HISTORY_BARS],
    );
    // SYNTHETIC_BARS calendar days up to yesterday, the last close spread over 10-510.
    await client.query(
      `INSERT INTO prices_daily (listing_id, date, open, high, low, close, adj_close, volume, data_source)
       SELECT l.id, current_date - 1 - d, c, c + 1, c - 1, c, c, 1000000 + d, 'delayed_provider'
       FROM listings l CROSS JOIN generate_series(0, $1 - 1) d
       CROSS JOIN LATERAL (SELECT round((10 + (l.id * 31 % 50000) / 100.0 + 3 * sin(l.id + d / 5.0))::numeric, 4) AS c) p
       WHERE l.source = 'bench' ON CONFLICT DO NOTHING`,
      [SYNTHETIC_BARS],
    );
    // Every value of the row 50 but RSI(14) (the snapshot's) and SMA(200).
    const rsi = screenRowPosition("rsi", '{"length":14}');
    const sma = screenRowPosition("sma", '{"length":200}');
    await client.query(
      `INSERT INTO screen_rows (listing_id, asset_id, currency, formula, window_bars, as_of, close, values, updated_at)
       SELECT d.listing_id, l.asset_id, l.currency, $1, $2, d.date, d.close::float8,
              (SELECT array_agg(CASE i WHEN $4 THEN s.value WHEN $5 THEN d.close::float8 * (0.8 + (d.listing_id * 13 % 40) / 100.0)
                                       ELSE 50 END ORDER BY i) FROM generate_series(1, $3) i), now()
       FROM prices_daily d JOIN listings l ON l.id = d.listing_id AND l.source = 'bench'
       JOIN indicator_snapshots s ON s.listing_id = d.listing_id AND s.indicator = 'rsi'
       WHERE d.date = current_date - 1
       ON CONFLICT DO NOTHING`,
      [SNAPSHOT_FORMULA, HISTORY_BARS, SNAPSHOT_SET.length, rsi, sma],
    );
    await client.query(
      `INSERT INTO screen_figures (asset_id, currency, market_cap, pe_ratio, dividend_yield, as_of, source, updated_at)
       SELECT a.id, 'USD', power(10, 8 + (a.id * 7 % 500) / 100.0), 5 + (a.id * 11 % 400) / 10.0,
              (a.id * 17 % 80) / 1000.0, current_date - 3, 'delayed_provider', now()
       FROM assets a WHERE a.isin LIKE 'ZZ%' ON CONFLICT DO NOTHING`,
    );
    // Vacuumed as well as analysed: the state autovacuum keeps a table in, not the first reader's
    // of 100,000 rows just written (which sets their hint bits and took seconds once).
    await client.query(
      "VACUUM ANALYZE assets, listings, indicator_snapshots, prices_daily, screen_rows, screen_figures",
    );
  } finally {
    await client.end();
  }
  return Number(((performance.now() - started) / 1000).toFixed(1));
}

/** Milliseconds of each request, ascending, with the last answer. */
async function timed(stack: BenchStack, paths: readonly string[]) {
  const times: number[] = [];
  let last: Record<string, unknown> = {};
  for (const path of paths) {
    const started = performance.now();
    last = await json(await fetch(`${stack.base}${path}`, { headers: stack.headers }));
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    runs: paths.length,
    p50_ms: Number(percentile(times, 50).toFixed(1)),
    p90_ms: Number(percentile(times, 90).toFixed(1)),
    max_ms: Number((times.at(-1) ?? 0).toFixed(1)),
    last,
  };
}

async function searches(stack: BenchStack) {
  const queries = ["apple", "deutsche", "S012345", "S050000", "holdings 4242", "banc", "mircosoft", "energy 999"];
  const paths = Array.from(
    { length: RUNS },
    (_, i) => `/search?q=${encodeURIComponent(queries[i % queries.length] ?? "")}&limit=10`,
  );
  // The provider's part is cached a day: a first pass warms it, so the figures are the catalogue's own.
  await timed(stack, [...new Set(paths)]);
  const r = await timed(stack, paths);
  // Each query's own time, for the slow ones.
  const each: Record<string, number> = {};
  for (const q of queries) each[q] = (await timed(stack, [`/search?q=${encodeURIComponent(q)}&limit=10`])).p50_ms;
  return { p50_ms: r.p50_ms, p90_ms: r.p90_ms, max_ms: r.max_ms, under_30_ms: r.p50_ms < 30, by_query_ms: each };
}

async function screens(stack: BenchStack) {
  const paths = Array.from(
    { length: RUNS },
    (_, i) => `/technical/screen?indicator=rsi&operator=lt&value=${(50 + i / 1000).toFixed(3)}`,
  );
  const r = await timed(stack, paths);
  const last = r.last as { screened?: number; total?: number };
  return {
    instruments_screened: last.screened,
    p50_ms: r.p50_ms,
    p90_ms: r.p90_ms,
    max_ms: r.max_ms,
    under_250_ms: r.p50_ms < 250,
  };
}

/**
 * The screen of several conditions, uncached (each request a new threshold): the issue's own
 * example, driven by a selective RSI range, and one whose first condition matches about half.
 */
async function conditionScreens(stack: BenchStack) {
  const run = async (where: (i: number) => string) => {
    const paths = Array.from(
      { length: RUNS },
      (_, i) => `/technical/screen/conditions?where=${encodeURIComponent(where(i))}`,
    );
    const r = await timed(stack, paths);
    const last = r.last as { screened?: number; total?: number };
    return {
      where: where(0),
      instruments_screened: last.screened,
      matches: last.total,
      p50_ms: r.p50_ms,
      p90_ms: r.p90_ms,
      max_ms: r.max_ms,
      under_300_ms: r.p50_ms < 300,
    };
  };
  return {
    rsi_close_market_cap: await run(
      (i) => `rsi_14 < ${(30 + i / 1000).toFixed(3)} and close > sma_200 and market_cap > 10bn`,
    ),
    close_above_sma_200: await run((i) => `close > sma_200, market_cap > ${(1 + i / 1000).toFixed(3)}bn`),
  };
}

/**
 * Screens of lengths no snapshot holds, over more bars than an answer reads at once: queued runs
 * of the day over every instrument (SMA(30) reads each one's 31 bars; RSI(21) all its bars).
 */
async function queuedScreens(stack: BenchStack) {
  return {
    sma_30: await queuedScreen(stack, "indicator=sma&period=30"),
    rsi_21: await queuedScreen(stack, "indicator=rsi&period=21"),
  };
}

async function queueFullRefresh(stack: BenchStack) {
  const started = performance.now();
  const body = await json(
    await fetch(`${stack.base}/catalogue/refresh`, {
      method: "POST",
      headers: { ...stack.headers, "content-type": "application/json" },
      body: "{}",
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const run = body.run as { listings: { queued: number } };
  return { listings_queued: run.listings.queued, seconds: Number(seconds.toFixed(1)), under_60_s: seconds < 60 };
}

/** Bars a sample of the synthetic listings gets, so that a stored bar's size can be read. */
const SAMPLE_LISTINGS = 1000;
const SAMPLE_BARS = 260;

async function costs(databaseUrl: string, listings: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // A year of bars for a sample of listings, as the refresh stores them (prices to 8 places, a source).
    await client.query(
      `INSERT INTO prices_daily (listing_id, date, open, high, low, close, adj_close, volume, data_source)
       SELECT l.id, current_date - d, c - 0.5, c + 1.25, c - 1, c, c * 0.99, 1000000 + (l.id * 7919 + d * 104729) % 250000, 'delayed_provider'
       FROM (SELECT id FROM listings WHERE source = 'bench' ORDER BY id LIMIT $1) l
       CROSS JOIN generate_series(1, $2) d
       CROSS JOIN LATERAL (SELECT round((100 + 20 * sin(l.id * 0.37 + d / 17.0))::numeric, 4) AS c) p
       ON CONFLICT DO NOTHING`,
      [SAMPLE_LISTINGS, SAMPLE_BARS],
    );
    await client.query("ANALYZE prices_daily");
    const r = await client.query<{ rows: string; bytes: string }>(
      `SELECT count(*) AS rows, pg_total_relation_size('prices_daily') AS bytes FROM prices_daily`,
    );
    const rows = Number(r.rows[0]?.rows ?? 0);
    const perRow = rows > 0 ? Number(r.rows[0]?.bytes ?? 0) / rows : 0;
    const tenYears = listings * TEN_YEARS_OF_SESSIONS;
    return {
      bars_stored_now: rows,
      bytes_per_bar_with_indexes: Math.round(perRow),
      ten_years_at_size: { listings, bars: tenYears, gigabytes: Number(((tenYears * perRow) / 1e9).toFixed(1)) },
      first_refresh_at_default_pace: {
        requests_per_minute: DEFAULT_PACE,
        requests_per_listing: FIRST_REFRESH_REQUESTS_PER_LISTING,
        hours: Number(((listings * FIRST_REFRESH_REQUESTS_PER_LISTING) / DEFAULT_PACE / 60).toFixed(1)),
        // A later daily run asks one chart a listing: the new bars.
        daily_run_hours: Number((listings / DEFAULT_PACE / 60).toFixed(1)),
      },
    };
  } finally {
    await client.end();
  }
}

runBench(
  async (stack) => {
    // The import is measured once per database (BENCH_IMPORTED=0 leaves it out of the other runs).
    const imported = IMPORTED > 0 ? await importWorld(stack) : null;
    console.error("bench: import", JSON.stringify(imported));
    const stage = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      const out = await work();
      console.error(`bench: ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return out;
    };
    const insertSeconds = await stage("synthetic listings", () => addSynthetic(stack.databaseUrl));
    const search = await stage("search", () => searches(stack));
    const screen = await stage("screen", () => screens(stack));
    const conditions = await stage("conditions screen", () => conditionScreens(stack));
    const queued = await stage("queued screens", () => queuedScreens(stack));
    const cost = await stage("cost", () => costs(stack.databaseUrl, SYNTHETIC + IMPORTED));
    // Last: the run's listings are queued to a consumer the stack's stop ends.
    const refresh = await stage("queueing a full refresh", () => queueFullRefresh(stack));
    return {
      ...benchHeader("catalogue"),
      database: stack.databaseLabel,
      cache: stack.cacheLabel,
      import: imported,
      synthetic: { listings: SYNTHETIC, bars_each: SYNTHETIC_BARS, insert_seconds: insertSeconds },
      search,
      screen_uncached: screen,
      conditions_screen_uncached: conditions,
      queued_screens: queued,
      queue_full_refresh: refresh,
      cost,
    };
  },
  { vars: { REFRESH_REQUESTS_PER_MINUTE: String(REQUESTS_PER_MINUTE), REFRESH_SCHEDULED: "false" } },
);
