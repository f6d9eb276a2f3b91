import { type Clock, type Deadline, deadlineIn, pinnedClock, systemClock } from "./clock";
import { DbHandle } from "./db/client";
import type { ImportMessage } from "./domain/catalogue-import";
import type { RefreshMessage } from "./domain/catalogue-refresh";
import type { FxWindow } from "./domain/fx/coverage";
import type { ScreenRunMessage } from "./domain/screen-runs";
import { type Bindings, type Config, loadConfig } from "./env";
import { type Cache, createCache } from "./platform/cache";
import { Keeping } from "./platform/cache/keeping";
import type { Context, Providers } from "./platform/context";
import { keyMeters } from "./platform/key-meters";
import { streamDirectory } from "./platform/stream-directory";
import { directSink, queueSink, type UsageSink } from "./platform/usage-sink";
import { DelayedProviderClient } from "./providers/delayed/client";
import { DelayedFundamentalsClient } from "./providers/delayed/fundamentals";
import { DriftJournal } from "./providers/drift-journal";
import { EcbClient } from "./providers/fx/ecb";
import type { HistoryProvider } from "./providers/history";
import { FredClient } from "./providers/macro/fred";
import type { NewsProvider } from "./providers/news/client";
import { newsProviders } from "./providers/news/registry";
import { type Pace, unpaced } from "./providers/pace";
import { restPolicyOf } from "./providers/rest";
import { BusinessInsiderPages } from "./providers/scraped/businessinsider";
import { OnvistaPages } from "./providers/scraped/onvista";
import type { IsinDirectory, ScrapedProvider } from "./providers/scraped/types";
import { EdgarClient } from "./providers/sec/edgar";
import { StreamProviderClient } from "./providers/stream/client";

/** What the composition root builds for a piece of work: its context, and the end of it. */
export interface Deps extends Context {
  /** Ends the work: closes the database pool, if a transaction opened one. */
  close(): Promise<void>;
}

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

/**
 * The providers of one piece of work, each built on first use and aimed at its configured address
 * within the work's deadline: most requests (a cache hit, stored prices) call none, and building all
 * fifteen clients for each of them was a measurable share of a small route's CPU.
 */
class RequestProviders implements Providers {
  #delayed?: DelayedProviderClient;
  #delayedFundamentals?: DelayedFundamentalsClient;
  #stream?: HistoryProvider;
  #scraped?: ScrapedProvider[];
  #edgar?: EdgarClient;
  #macro?: FredClient;
  #ecb?: EcbClient;
  #news?: NewsProvider[];

  constructor(
    private readonly config: Config,
    private readonly cache: Cache,
    private readonly deadline: Deadline,
    private readonly clock: Clock,
    private readonly drifts: DriftJournal,
    private readonly pace: Pace,
  ) {}

  get delayed(): DelayedProviderClient {
    const { config: c, deadline, clock, drifts, pace } = this;
    this.#delayed ??= new DelayedProviderClient({
      baseUrl: c.DELAYED_PROVIDER_BASE_URL,
      timeoutMs: c.PROVIDER_TIMEOUT_MS,
      deadline,
      clock,
      drifts,
      pace,
      restPolicy: restPolicyOf(c),
    });
    return this.#delayed;
  }

  get delayedFundamentals(): DelayedFundamentalsClient {
    const { config: c, deadline, clock, pace } = this;
    this.#delayedFundamentals ??= new DelayedFundamentalsClient({
      baseUrl: c.DELAYED_PROVIDER_BASE_URL,
      timeoutMs: c.PROVIDER_TIMEOUT_MS,
      deadline,
      clock,
      pace,
      restPolicy: restPolicyOf(c),
    });
    return this.#delayedFundamentals;
  }

  get stream(): HistoryProvider {
    const { config: c, deadline, clock, drifts, pace } = this;
    this.#stream ??= new StreamProviderClient({
      baseUrl: c.STREAM_PROVIDER_WS_URL,
      timeoutMs: c.PROVIDER_TIMEOUT_MS * 2,
      clock,
      deadline,
      drifts,
      pace,
      restPolicy: restPolicyOf(c),
    });
    return this.#stream;
  }

  get scraped(): ScrapedProvider[] {
    const { config: c, deadline, clock } = this;
    this.#scraped ??= [
      new BusinessInsiderPages({
        baseUrl: c.SCRAPED_BUSINESSINSIDER_BASE_URL,
        timeoutMs: c.PROVIDER_TIMEOUT_MS,
        deadline,
        clock,
        restPolicy: restPolicyOf(c),
      }),
      new OnvistaPages({
        baseUrl: c.SCRAPED_ONVISTA_BASE_URL,
        timeoutMs: c.PROVIDER_TIMEOUT_MS,
        deadline,
        clock,
        restPolicy: restPolicyOf(c),
      }),
    ];
    return this.#scraped;
  }

  get isinDirectory(): IsinDirectory {
    const site = this.scraped.find((p): p is BusinessInsiderPages => p instanceof BusinessInsiderPages);
    if (!site) throw new Error("the scraped providers lack the site whose search states ISINs");
    return site;
  }

  get edgar(): EdgarClient {
    const { config: c, cache, deadline, clock, drifts } = this;
    this.#edgar ??= new EdgarClient({
      baseUrl: c.SEC_BASE_URL,
      dataBaseUrl: c.SEC_DATA_BASE_URL,
      userAgent: c.SEC_USER_AGENT,
      cache,
      timeoutMs: c.PROVIDER_TIMEOUT_MS,
      deadline,
      clock,
      drifts,
      requestsPerSecond: c.SEC_REQUESTS_PER_SECOND,
      restPolicy: restPolicyOf(c),
    });
    return this.#edgar;
  }

  get macro(): FredClient {
    const { config: c, deadline, clock, drifts } = this;
    this.#macro ??= new FredClient({
      baseUrl: c.MACRO_PROVIDER_BASE_URL,
      apiKey: c.MACRO_API_KEY,
      timeoutMs: c.PROVIDER_TIMEOUT_MS,
      deadline,
      clock,
      drifts,
      restPolicy: restPolicyOf(c),
    });
    return this.#macro;
  }

  get ecb(): EcbClient {
    const { config: c, deadline, clock, drifts } = this;
    this.#ecb ??= new EcbClient({
      baseUrl: c.ECB_BASE_URL,
      dataApiBaseUrl: c.ECB_DATA_API_BASE_URL,
      timeoutMs: c.PROVIDER_TIMEOUT_MS,
      deadline,
      clock,
      drifts,
      restPolicy: restPolicyOf(c),
    });
    return this.#ecb;
  }

  get news(): NewsProvider[] {
    this.#news ??= newsProviders(this.config, this.deadline, this.clock, this.drifts);
    return this.#news;
  }
}

export interface DepsOptions {
  /** Pins the time (tests); otherwise CLOCK_PINNED_AT, else the system clock. */
  clock?: Clock;
  /** The work's deadline; REQUEST_DEADLINE_MS by default, Infinity for long-lived work (a stream, a cron job). */
  deadlineMs?: number;
  /** What keeps deferred work alive after the answer (a request's `waitUntil`); without it, the work runs on its own. */
  waitUntil?: (work: Promise<unknown>) => void;
  /** Waits for each price provider's turn before a request (the catalogue refresh); no wait by default. */
  pace?: Pace;
}

/**
 * The one place that builds what a request, a Durable Object or a cron job works with: config
 * (parsed once per env object), clock, deadline, a lazy database handle, the cache, the providers
 * (each built on first use, bounded by the deadline), the realtime streams and the usage sink.
 * @example const deps = buildDeps(env, { deadlineMs: Number.POSITIVE_INFINITY }); await deps.close();
 */
export function buildDeps(env: Bindings, opts: DepsOptions = {}): Deps {
  const config = loadConfig(env);
  const clock = opts.clock ?? configuredClock(env, config);
  const deadline = deadlineIn(clock, opts.deadlineMs ?? config.REQUEST_DEADLINE_MS);
  const db = new DbHandle(config);
  const cache = createCache(config);
  const drifts = new DriftJournal();
  const waitUntil = opts.waitUntil ?? (() => undefined);
  return {
    config,
    clock,
    deadline,
    get db() {
      return db.db;
    },
    transaction: db.transaction,
    databaseConfigured: db.configured,
    cache,
    providers: new RequestProviders(config, cache, deadline, clock, drifts, opts.pace ?? unpaced),
    streams: streamDirectory(env),
    meters: keyMeters(env),
    usage: usageSink(env, db),
    refreshQueue: (env.REFRESH_QUEUE as Queue<RefreshMessage> | undefined) ?? null,
    importQueue: (env.IMPORT_QUEUE as Queue<ImportMessage> | undefined) ?? null,
    screenQueue: (env.SCREEN_QUEUE as Queue<ScreenRunMessage> | undefined) ?? null,
    fxQueue: (env.FX_QUEUE as Queue<FxWindow> | undefined) ?? null,
    caller: null,
    journal: {
      keeping: new Keeping(),
      drifts,
      defer: (work) => waitUntil(work.catch((err: unknown) => console.warn("deferred work failed", String(err)))),
    },
    close: () => db.close(),
  };
}
