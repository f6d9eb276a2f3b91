import type { KeyKind } from "./auth";
import { type Cache, createCache } from "./cache";
import { type Clock, type Deadline, deadlineIn, pinnedClock, systemClock } from "./clock";
import { DbHandle } from "./db/client";
import { type Bindings, type Config, loadConfig } from "./env";
import { DelayedProviderClient } from "./providers/delayed/client";
import { DelayedFundamentalsClient } from "./providers/delayed/fundamentals";
import type { HistoryProvider } from "./providers/history";
import { FredClient } from "./providers/macro/fred";
import type { NewsProvider } from "./providers/news/client";
import { newsProviders } from "./providers/news/registry";
import { BusinessInsiderPages } from "./providers/scraped/businessinsider";
import { OnvistaPages } from "./providers/scraped/onvista";
import type { ScrapedProvider } from "./providers/scraped/types";
import { EdgarClient } from "./providers/sec/edgar";
import { StreamProviderClient } from "./providers/stream/client";
import { type StreamDirectory, streamDirectory } from "./services/realtime/directory";
import { directSink, queueSink, type UsageSink } from "./services/usage/record-usage";

/** What a request's handlers and services are given; built once per request by the init middleware. */
export interface Deps {
  config: Config;
  /** The only source of the time for business decisions (tests pin it). */
  clock: Clock;
  /** When the work this was built for must be answered by: every provider call stays inside it. */
  deadline: Deadline;
  db: DbHandle;
  cache: Cache;
  providers: Providers;
  /** Realtime streams; null without the Durable Object bindings. */
  streams: StreamDirectory | null;
  /** Where usage entries go: the queue when bound, else straight to Postgres. */
  usage: UsageSink;
}

/** The external sources a request may call, aimed at their configured base URLs. */
export interface Providers {
  delayed: DelayedProviderClient;
  /** The delayed provider's quoteSummary and fundamentals-timeseries (through yahoo-finance2). */
  delayedFundamentals: DelayedFundamentalsClient;
  stream: HistoryProvider;
  /** Web pages of trailing P/E, EPS and dividend yield (a fallback of /fundamental). */
  scraped: ScrapedProvider[];
  /** SEC EDGAR (Form 4 insider transactions). */
  edgar: EdgarClient;
  /** The macro provider (FRED): the risk-free rate. */
  macro: FredClient;
  /** The seven news providers (keyed ones without their key are not asked). */
  news: NewsProvider[];
}

export type AppEnv = {
  Bindings: Bindings;
  Variables: {
    deps: Deps;
    keyKind: KeyKind | "none";
    requestId: string;
  };
};

const pinnedClocks = new WeakMap<object, Clock>();

/** CLOCK_PINNED_AT's clock, one per env object, so that it runs on across requests instead of restarting. */
function configuredClock(env: Bindings, config: Config): Clock {
  if (!config.CLOCK_PINNED_AT) return systemClock;
  let clock = pinnedClocks.get(env);
  if (!clock) {
    clock = pinnedClock(config.CLOCK_PINNED_AT);
    pinnedClocks.set(env, clock);
  }
  return clock;
}

/** The queue when bound (with a direct write as its fallback), else the direct write. */
function usageSink(env: Bindings, db: DbHandle): UsageSink {
  const direct = directSink(() => (db.configured ? db.db : null));
  return env.USAGE_QUEUE ? queueSink(env.USAGE_QUEUE, direct) : direct;
}

export interface DepsOptions {
  /** Pins the time (tests); otherwise CLOCK_PINNED_AT, else the system clock. */
  clock?: Clock;
  /** The work's deadline; REQUEST_DEADLINE_MS by default, Infinity for long-lived work (a stream, a cron job). */
  deadlineMs?: number;
}

/**
 * The one place that builds what a request, a Durable Object or a cron job works with: config
 * (parsed once per env object), clock, deadline, a lazy database handle, the cache, the providers
 * (bounded by the deadline), the realtime streams and the usage sink.
 * @example const deps = buildDeps(env, { deadlineMs: Number.POSITIVE_INFINITY }); await deps.db.close();
 */
export function buildDeps(env: Bindings, opts: DepsOptions = {}): Deps {
  const config = loadConfig(env);
  const clock = opts.clock ?? configuredClock(env, config);
  const deadline = deadlineIn(clock, opts.deadlineMs ?? config.REQUEST_DEADLINE_MS);
  const db = new DbHandle(config);
  const cache = createCache(config);
  return {
    config,
    clock,
    deadline,
    db,
    cache,
    providers: {
      delayed: new DelayedProviderClient(config.DELAYED_PROVIDER_BASE_URL, config.PROVIDER_TIMEOUT_MS, deadline, clock),
      delayedFundamentals: new DelayedFundamentalsClient(
        config.DELAYED_PROVIDER_BASE_URL,
        config.PROVIDER_TIMEOUT_MS,
        deadline,
        clock,
      ),
      scraped: [
        new BusinessInsiderPages(config.SCRAPED_BUSINESSINSIDER_BASE_URL, config.PROVIDER_TIMEOUT_MS, deadline, clock),
        new OnvistaPages(config.SCRAPED_ONVISTA_BASE_URL, config.PROVIDER_TIMEOUT_MS, deadline, clock),
      ],
      edgar: new EdgarClient(
        config.SEC_BASE_URL,
        config.SEC_DATA_BASE_URL,
        config.SEC_USER_AGENT,
        cache,
        config.PROVIDER_TIMEOUT_MS,
        deadline,
        clock,
      ),
      macro: new FredClient(
        config.MACRO_PROVIDER_BASE_URL,
        config.MACRO_API_KEY,
        config.PROVIDER_TIMEOUT_MS,
        deadline,
        clock,
      ),
      news: newsProviders(config, deadline, clock),
      stream: new StreamProviderClient(config.STREAM_PROVIDER_WS_URL, config.PROVIDER_TIMEOUT_MS * 2, clock, deadline),
    },
    streams: streamDirectory(env),
    usage: usageSink(env, db),
  };
}
