import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { pinnedClock } from "../../src/clock";
import { startRedisBridge } from "../../tools/cache/redis-bridge";
import { assertReachable } from "../../tools/db/connect";
import { startEmbeddedPostgres } from "../../tools/db/embedded-postgres";
import { migrateDatabase } from "../../tools/db/migrate";
import { startNeonLocal } from "../../tools/db/neon-local";
import { seedCatalogue } from "../../tools/db/seed";
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

declare module "vitest" {
  export interface ProvidedContext {
    workerBindings: Record<string, string>;
    /**
     * The hardening nets' own EDGAR: a simulator allowing a hundred requests a second, asked at that
     * pace (the nets fetch a registrant's thirty filings hundreds of times; at EDGAR's real pace
     * that alone took a minute). The API tests keep the real limit and pace.
     */
    hardeningBindings: Record<string, string>;
    hardeningEdgarSimUrl: string;
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

/**
 * The stack the Worker under test talks to: Postgres (TEST_DATABASE_URL, else an in-memory PGlite),
 * Neon's endpoints (SQL over HTTP, the WebSocket proxy) in front of it, the provider simulators, and, when REDIS_URL is set, the
 * Upstash REST bridge.
 */
export default async function setup(project: TestProject) {
  // Pure unit tests (and the smoke tests, which start the README's own stack) need none of it: a
  // run of only those starts nothing.
  if (project.vitest.projects.every((p) => STACKLESS_PROJECTS.has(p.name))) return;
  const stops: (() => Promise<void>)[] = [];
  let databaseUrl = process.env.TEST_DATABASE_URL;
  if (databaseUrl) await assertReachable(databaseUrl, "TEST_DATABASE_URL");
  else {
    const embedded = await startEmbeddedPostgres();
    stops.push(embedded.stop);
    databaseUrl = embedded.url;
  }
  await migrateDatabase(databaseUrl);
  await seedCatalogue(databaseUrl);
  const target = new URL(databaseUrl);
  const neon = await startNeonLocal({ host: target.hostname, port: Number(target.port || 5432) });
  stops.push(neon.close);

  const yahoo = await startYahooSim();
  stops.push(yahoo.close);
  const intradayYahoo = await startYahooSim({ clock: pinnedClock(INTRADAY_SIM_AS_OF) });
  stops.push(intradayYahoo.close);
  // Fast ticks and heartbeats so the realtime tests see several of each in seconds.
  const tradingView = await startTradingViewSim({ tickMs: 200, heartbeatMs: 1500 });
  stops.push(tradingView.close);

  const scraped = await startScrapedPagesSim();
  stops.push(scraped.close);
  const edgar = await startEdgarSim();
  stops.push(edgar.close);
  const hardeningEdgar = await startEdgarSim({ perSecond: 100 });
  stops.push(hardeningEdgar.close);
  // The macro provider's series as FRED lists it on the day after Thanksgiving 2026: its newest
  // listed day (the 26th) is a holiday ".", so the newest real observation is the 25th's.
  const fred = await startFredSim({ clock: pinnedClock(FRED_SIM_AS_OF) });
  stops.push(fred.close);
  // The news providers' stories as of a fixed instant (they never move under a test).
  const news = await startNewsSim({ clock: pinnedClock(NEWS_SIM_AS_OF) });
  stops.push(news.close);
  const recorded = await startReplay({ dir: fileURLToPath(new URL("../fixtures/recorded", import.meta.url)) });
  stops.push(recorded.close);

  const bindings: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    ...neon.vars,
    SERVICE_API_KEYS: FULL_KEY,
    SERVICE_READ_ONLY_API_KEYS: READ_ONLY_KEY,
    DELAYED_PROVIDER_BASE_URL: yahoo.url,
    STREAM_PROVIDER_WS_URL: tradingView.wsUrl,
    SCRAPED_BUSINESSINSIDER_BASE_URL: scraped.url,
    SCRAPED_ONVISTA_BASE_URL: scraped.url,
    SEC_BASE_URL: edgar.url,
    SEC_DATA_BASE_URL: edgar.url,
    SEC_USER_AGENT: "market-data-service tests@example.com",
    MACRO_PROVIDER_BASE_URL: fred.url,
    MACRO_API_KEY: FRED_SIM_KEY,
    ...newsSimSettings(news.url),
    // Short deadlines so the timeout faults are tested in seconds.
    PROVIDER_TIMEOUT_MS: "1500",
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
  };
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl) {
    // CI sets REDIS_URL and must fail, not skip, when Redis is down: startRedisBridge connects first.
    const bridge = await startRedisBridge({ redisUrl, token: "test-bridge-token" }).catch((err: unknown) => {
      throw new Error(`REDIS_URL is set but Redis is unreachable (${redisUrl}): ${String(err)}`);
    });
    stops.push(bridge.close);
    bindings.UPSTASH_REDIS_REST_URL = bridge.url;
    bindings.UPSTASH_REDIS_REST_TOKEN = bridge.token;
  }
  project.provide("workerBindings", bindings);
  project.provide("hardeningBindings", {
    SEC_BASE_URL: hardeningEdgar.url,
    SEC_DATA_BASE_URL: hardeningEdgar.url,
    SEC_REQUESTS_PER_SECOND: "90",
  });
  project.provide("hardeningEdgarSimUrl", hardeningEdgar.url);
  project.provide("databaseUrl", databaseUrl);
  project.provide("redisBacked", Boolean(redisUrl));
  project.provide("delayedSimUrl", yahoo.url);
  project.provide("intradaySimUrl", intradayYahoo.url);
  project.provide("streamSimUrl", tradingView.url);
  project.provide("scrapedSimUrl", scraped.url);
  project.provide("edgarSimUrl", edgar.url);
  project.provide("fredSimUrl", fred.url);
  project.provide("newsSimUrl", news.url);
  project.provide("replayUrl", recorded.url);
  const full = process.env.HARDENING === "full";
  project.provide("hardeningFull", full);
  project.provide("fuzzSeed", fuzzSeed(full));
  project.provide("simulatedProviders", [...SIMULATED_PROVIDERS]);
  project.provide("fuzzRequests", Number(process.env.FUZZ_REQUESTS || (full ? 10_000 : 1_000)));

  return async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
}
