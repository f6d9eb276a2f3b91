import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { pinnedClock } from "../../src/clock";
import { docsWorkerOptions } from "../../tools/build/docs-assets";
import { mcpWorkerOptions } from "../../tools/build/mcp-worker";
import { startRedisBridge } from "../../tools/cache/redis-bridge";
import { assertReachable } from "../../tools/db/connect";
import { startEmbeddedPostgres } from "../../tools/db/embedded-postgres";
import { migrateDatabase } from "../../tools/db/migrate";
import { startNeonLocal } from "../../tools/db/neon-local";
import { seedCatalogue } from "../../tools/db/seed";
import { startEcbSim } from "../../tools/sandbox/ecb";
import { startEdgarSim } from "../../tools/sandbox/edgar";
import { FRED_SIM_KEY, startFredSim } from "../../tools/sandbox/fred";
import { newsSimSettings, startNewsSim } from "../../tools/sandbox/news";
import { SIMULATED_PROVIDERS, type SimulatedProvider } from "../../tools/sandbox/registry";
import { startReplay } from "../../tools/sandbox/replay";
import { startScrapedPagesSim } from "../../tools/sandbox/scraped-pages";
import { startTradingViewSim } from "../../tools/sandbox/tradingview";
import { startYahooSim } from "../../tools/sandbox/yahoo";
import { FULL_KEY, READ_ONLY_KEY } from "./keys";

/** The instant the macro provider's simulator lives at in the tests (its series never moves). */
export const FRED_SIM_AS_OF = "2026-11-27T15:00:00Z";
/** The instant the news providers' simulator lives at in the tests. */
export const NEWS_SIM_AS_OF = "2026-11-27T12:30:00Z";
/**
 * The instant a second delayed-provider simulator starts at, for the intraday tests: its history
 * limits and the session under way are counted from it, never from the day the tests run.
 * Wednesday 25 November 2026, noon in New York: Nasdaq's session is under way, Xetra's has closed.
 */
export const INTRADAY_SIM_AS_OF = "2026-11-25T17:00:00Z";
/** The stream simulator's first instant: a Wednesday at 15:00 UTC, within the US and European sessions. */
export const STREAM_SIM_AS_OF = "2026-11-25T15:00:00Z";

declare module "vitest" {
  export interface ProvidedContext {
    workerBindings: Record<string, string>;
    /** The docs Worker (workers/docs) as Miniflare runs it, its files built for this run. */
    docsWorker: ReturnType<typeof docsWorkerOptions>;
    /** The MCP Worker (workers/mcp), bundled for this run: POST /mcp reaches it over RPC. */
    mcpWorker: ReturnType<typeof mcpWorkerOptions>;
    /**
     * The hardening nets' bindings: a stack of their own (database, simulators, Redis database),
     * so that they run beside the API tests. Their EDGAR allows a hundred requests a second and is
     * asked at that pace; the API tests keep the real limit and pace.
     */
    hardeningBindings: Record<string, string>;
    /** The control addresses of the nets' own simulators. */
    hardeningSims: StackSims;
    databaseUrl: string;
    redisBacked: boolean;
    /** Control addresses of the provider simulators (faults on demand). */
    delayedSimUrl: string;
    /** The delayed-provider simulator whose clock starts at INTRADAY_SIM_AS_OF. */
    intradaySimUrl: string;
    streamSimUrl: string;
    scrapedSimUrl: string;
    edgarSimUrl: string;
    fredSimUrl: string;
    ecbSimUrl: string;
    newsSimUrl: string;
    /** The recorded answers of the real providers, served at `<replayUrl>/<provider>` (tools/sandbox/replay.ts). */
    replayUrl: string;
    /** The fuzzer's seed: FUZZ_SEED, else (full nets) one derived from the commit, else a fixed one. */
    fuzzSeed: number;
    /** Requests the fuzzer sends per run: FUZZ_REQUESTS, else 10,000 (full nets) or 1,000 (the sample). */
    fuzzRequests: number;
    /** HARDENING=full (CI): the fuzzer's and the drift net's full counts; else a fixed sample of each. */
    hardeningFull: boolean;
    /** The sandbox's registry of simulated providers: their fault modes and the requests that reach them. */
    simulatedProviders: SimulatedProvider[];
  }
}

/** The sample's seed (and the full run's outside a git checkout). */
const FIXED_FUZZ_SEED = 20_261_126;

/**
 * FUZZ_SEED when given (to replay a failure); for the full nets, the commit's hash folded to 31
 * bits, so a run is reproducible on its commit and each new commit explores new requests; else a
 * fixed seed (the sample of `npm test` sends the same requests every run).
 */
function fuzzSeed(full: boolean): number {
  const given = process.env.FUZZ_SEED;
  if (given) return Number(given);
  if (!full) return FIXED_FUZZ_SEED;
  try {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return Number.parseInt(head.slice(0, 8), 16) & 0x7fffffff;
  } catch {
    return FIXED_FUZZ_SEED;
  }
}

/** Projects that use nothing the global set-up starts. */
const STACKLESS_PROJECTS = new Set(["unit", "smoke"]);

/** The control addresses of one stack's simulators, by the name the fault registry gives them. */
export type StackSims = Record<SimulatedProvider["simulator"], string>;

/** One stack: a database, Neon's endpoints in front of it, the simulators, the Worker's bindings to them. */
interface Stack {
  databaseUrl: string;
  bindings: Record<string, string>;
  sims: StackSims;
}

type Stop = () => Promise<void>;

/**
 * A database of its own for a stack: on the given Postgres server, a database `<its own>_<name>`
 * created afresh and dropped after the run (TEST_DATABASE_URL in CI), else an in-memory PGlite.
 * `name` "" is the server's database itself.
 */
async function startDatabase(serverUrl: string | undefined, name: string, stops: Stop[]): Promise<string> {
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres();
    stops.push(embedded.stop);
    return embedded.url;
  }
  if (name === "") return serverUrl;
  const url = new URL(serverUrl);
  const database = `${decodeURIComponent(url.pathname.slice(1)) || "postgres"}_${name}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const quoted = `"${database.replaceAll('"', '""')}"`;
  await admin(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${quoted}`);
  stops.push(() => admin(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`));
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/**
 * The stack the Worker under test talks to: Postgres (TEST_DATABASE_URL, else an in-memory PGlite),
 * Neon's endpoints (SQL over HTTP, the WebSocket proxy) in front of it, the provider simulators,
 * and, when REDIS_URL is set, the Upstash REST bridge (on REDIS_URL's database + `redisOffset`).
 * `name` "" is the API tests' stack outside a lane (TEST_DATABASE_URL itself); another name gets
 * a database of its own beside it.
 */
async function startStack(
  opts: {
    name: string;
    redisOffset: number;
    edgarPerSecond?: number;
    edgarPace?: string;
    /** PROVIDER_TIMEOUT_MS of the stack (1500 unless given). */
    providerTimeoutMs?: string;
  },
  stops: Stop[],
): Promise<Stack> {
  const databaseUrl = await startDatabase(process.env.TEST_DATABASE_URL, opts.name, stops);
  await migrateDatabase(databaseUrl);
  await seedCatalogue(databaseUrl);
  const target = new URL(databaseUrl);
  const neon = await startNeonLocal({ host: target.hostname, port: Number(target.port || 5432) });
  stops.push(neon.close);

  const yahoo = await startYahooSim();
  stops.push(yahoo.close);
  // Fast ticks and heartbeats so the realtime tests see several of each in seconds. Its minutes run
  // from a Wednesday afternoon, inside every venue's session, whatever day the tests run: candles
  // outside a session are not stored, and a test must not depend on the day it runs.
  const tradingView = await startTradingViewSim({
    tickMs: 200,
    heartbeatMs: 1500,
    clock: pinnedClock(STREAM_SIM_AS_OF),
  });
  stops.push(tradingView.close);
  const scraped = await startScrapedPagesSim();
  stops.push(scraped.close);
  const edgar = await startEdgarSim({ perSecond: opts.edgarPerSecond });
  stops.push(edgar.close);
  // The macro provider's series as FRED lists it on the day after Thanksgiving 2026: its newest
  // listed day (the 26th) is a holiday ".", so the newest real observation is the 25th's.
  const fred = await startFredSim({ clock: pinnedClock(FRED_SIM_AS_OF) });
  stops.push(fred.close);
  // The ECB's publications run with the real clock (the daily file is the day's, as the canary
  // expects); its 90-day file holds every day since September 2026 too, the days the tests pin.
  const ecb = await startEcbSim({ recentFloor: "2026-09-01" });
  stops.push(ecb.close);
  // The news providers' stories as of a fixed instant (they never move under a test).
  const news = await startNewsSim({ clock: pinnedClock(NEWS_SIM_AS_OF) });
  stops.push(news.close);

  const bindings: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    ...neon.vars,
    SERVICE_API_KEYS: FULL_KEY,
    SERVICE_READ_ONLY_API_KEYS: READ_ONLY_KEY,
    // The generated nets send the suite's one key tens of thousands of requests; the rate-limit
    // tests make keys of their own with a tight limit.
    KEY_RATE_LIMIT: "10000000",
    DELAYED_PROVIDER_BASE_URL: yahoo.url,
    STREAM_PROVIDER_WS_URL: tradingView.wsUrl,
    SCRAPED_BUSINESSINSIDER_BASE_URL: scraped.url,
    SCRAPED_ONVISTA_BASE_URL: scraped.url,
    SEC_BASE_URL: edgar.url,
    SEC_DATA_BASE_URL: edgar.url,
    SEC_USER_AGENT: "market-data-service tests@example.com",
    ...(opts.edgarPace ? { SEC_REQUESTS_PER_SECOND: opts.edgarPace } : {}),
    MACRO_PROVIDER_BASE_URL: fred.url,
    MACRO_API_KEY: FRED_SIM_KEY,
    ECB_BASE_URL: ecb.url,
    ECB_DATA_API_BASE_URL: ecb.url,
    ...newsSimSettings(news.url),
    // Short deadlines so the timeout faults are tested in seconds (the nets set their own: they run
    // beside the API tests, and a simulator slowed by the load must not read as a provider failing).
    PROVIDER_TIMEOUT_MS: opts.providerTimeoutMs ?? "1500",
    // A stalled stream is noticed in seconds rather than the production 45.
    STREAM_STALL_MS: "2000",
    // The fault matrix fails providers on purpose and expects them back at once: no resting here
    // (test/worker/provider-rest.test.ts turns it on for itself, on a provider address of its own).
    PROVIDER_REST_AFTER_FAILURES: "0",
    // The location's cache would answer a test's second call with its first call's answer, whatever
    // the test changed between them: off here; test/worker/edge-cache.test.ts turns it on for itself.
    EDGE_CACHE_SECONDS: "0",
    // The catalogue refresh's retries at once (their schedule is test/unit/catalogue-refresh.test.ts's),
    // and its pacing well above what a test sends.
    REFRESH_RETRY_DELAY_SECONDS: "0",
    REFRESH_REQUESTS_PER_MINUTE: "6000",
    // The scheduled refresh would ingest the whole catalogue beside the tests (the five-minute
    // trigger runs in them): test/worker/catalogue-refresh.test.ts turns it on for itself.
    REFRESH_SCHEDULED: "false",
    // The nets send one key thousands of requests naming tickers no catalogue has; the limit's own
    // test (test/worker/catalogue-additions.test.ts) sets it low for its calls.
    CATALOGUE_ADDITIONS_PER_MINUTE: "10000",
    CATALOGUE_DISCOVERIES_PER_MINUTE: "100000",
    CATALOGUE_DISCOVERIES_PER_DAY: "1000000",
  };
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl) {
    // CI sets REDIS_URL and must fail, not skip, when Redis is down: startRedisBridge connects first.
    // Each stack its own Redis database, counted from REDIS_URL's own (0 when it names none), so
    // one stack's cached answers never reach another's tests.
    const url = new URL(redisUrl);
    const own = Number(url.pathname.slice(1) || 0);
    url.pathname = `/${own + opts.redisOffset}`;
    const bridge = await startRedisBridge({ redisUrl: url.toString(), token: "test-bridge-token" }).catch(
      (err: unknown) => {
        throw new Error(`REDIS_URL is set but Redis is unreachable (${redisUrl}): ${String(err)}`);
      },
    );
    stops.push(bridge.close);
    bindings.UPSTASH_REDIS_REST_URL = bridge.url;
    bindings.UPSTASH_REDIS_REST_TOKEN = bridge.token;
  }
  const sims: StackSims = {
    delayedSimUrl: yahoo.url,
    streamSimUrl: tradingView.url,
    scrapedSimUrl: scraped.url,
    edgarSimUrl: edgar.url,
    fredSimUrl: fred.url,
    ecbSimUrl: ecb.url,
    newsSimUrl: news.url,
  };
  return { databaseUrl, bindings, sims };
}

/** Projects that read the API tests' stack. */
const API_PROJECTS = ["worker", "worker-fresh", "node"];

/**
 * A stack for the API tests and one of its own for the hardening nets: the nets compare
 * whole-database snapshots, fail providers on purpose and may delete data (POST /database/cleanup),
 * so they get a database, simulators and a Redis database of their own. Each starts only when the
 * run holds a project that reads it. `npm test` runs several vitest processes at once
 * (tools/test/run.ts), each a lane numbered in TEST_LANE: a lane's stacks are its own (databases
 * `<TEST_DATABASE_URL's>_lane<n>` and `..._lane<n>_nets` on the same server, dropped after the
 * run; Redis databases REDIS_URL's + 2n and + 2n + 1). Outside a lane, the API tests' stack is
 * TEST_DATABASE_URL and REDIS_URL themselves, the nets' `<TEST_DATABASE_URL's>_nets` and the next
 * Redis database.
 */
export default async function setup(project: TestProject) {
  // Pure unit tests (and the smoke tests, which start the README's own stack) need none of it: a
  // run of only those starts nothing.
  if (project.vitest.projects.every((p) => STACKLESS_PROJECTS.has(p.name))) return;
  const stops: Stop[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  if (process.env.TEST_DATABASE_URL) await assertReachable(process.env.TEST_DATABASE_URL, "TEST_DATABASE_URL");
  const lane = Number(process.env.TEST_LANE ?? 0);
  const names = new Set(project.vitest.projects.map((p) => p.name));
  let api: Stack | undefined;
  let nets: Stack | undefined;
  try {
    if (API_PROJECTS.some((n) => names.has(n)))
      api = await startStack({ name: lane ? `lane${lane}` : "", redisOffset: 2 * lane }, stops);
    // The nets' EDGAR allows a hundred requests a second and is asked at that pace: the nets fetch a
    // registrant's thirty filings hundreds of times (at EDGAR's real pace that alone took a minute).
    if (names.has("hardening"))
      nets = await startStack(
        {
          name: lane ? `lane${lane}_nets` : "nets",
          redisOffset: 2 * lane + 1,
          edgarPerSecond: 100,
          edgarPace: "90",
          // The fault matrix times its timeout faults with a limit of its own.
          providerTimeoutMs: "5000",
        },
        stops,
      );
  } catch (err) {
    // What started before the failure is stopped (vitest runs no teardown for a set-up that threw).
    await stopAll();
    throw err;
  }
  // One of them at least: a run holds a project that is not stackless.
  const main = (api ?? nets) as Stack;
  const intradayYahoo = await startYahooSim({ clock: pinnedClock(INTRADAY_SIM_AS_OF) });
  stops.push(intradayYahoo.close);
  const recorded = await startReplay({ dir: fileURLToPath(new URL("../fixtures/recorded", import.meta.url)) });
  stops.push(recorded.close);

  project.provide("workerBindings", main.bindings);
  project.provide("docsWorker", docsWorkerOptions(fileURLToPath(new URL("../..", import.meta.url))));
  project.provide("mcpWorker", mcpWorkerOptions(fileURLToPath(new URL("../..", import.meta.url))));
  project.provide("hardeningBindings", (nets ?? main).bindings);
  project.provide("hardeningSims", (nets ?? main).sims);
  project.provide("databaseUrl", main.databaseUrl);
  project.provide("redisBacked", Boolean(process.env.REDIS_URL));
  project.provide("delayedSimUrl", main.sims.delayedSimUrl);
  project.provide("intradaySimUrl", intradayYahoo.url);
  project.provide("streamSimUrl", main.sims.streamSimUrl);
  project.provide("scrapedSimUrl", main.sims.scrapedSimUrl);
  project.provide("edgarSimUrl", main.sims.edgarSimUrl);
  project.provide("fredSimUrl", main.sims.fredSimUrl);
  project.provide("ecbSimUrl", main.sims.ecbSimUrl);
  project.provide("newsSimUrl", main.sims.newsSimUrl);
  project.provide("replayUrl", recorded.url);
  const full = process.env.HARDENING === "full";
  project.provide("hardeningFull", full);
  project.provide("fuzzSeed", fuzzSeed(full));
  project.provide("simulatedProviders", [...SIMULATED_PROVIDERS]);
  project.provide("fuzzRequests", Number(process.env.FUZZ_REQUESTS || (full ? 10_000 : 1_000)));

  return stopAll;
}
