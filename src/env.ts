import { z } from "zod";
import { WORKSPACE_ORIGINS } from "./domain/workspace/origins";

/**
 * The Worker's bindings as `wrangler types` generates them (`Env`, src/worker-configuration.d.ts,
 * from wrangler.toml and the settings listed in .dev.vars.example). Every setting may be absent
 * (its default applies), hence Partial; `Config` below is the typed, defaulted view the code uses.
 */
export type Bindings = Partial<Env>;

/** The shortest key the service accepts in its settings: 32 characters (a random 128 bits or more). */
export const MIN_KEY_LENGTH = 32;
/** The longest key read from a request or a setting: what is longer is refused before it is hashed. */
export const MAX_KEY_LENGTH = 256;

const csv = z
  .string()
  .optional()
  .transform((s) =>
    (s ?? "")
      .split(",")
      .map((k) => k.trim())
      .filter((k) => k.length > 0),
  );

const optionalString = z
  .string()
  .optional()
  .transform((s) => (s && s.trim().length > 0 ? s.trim() : undefined));

const bool = (dflt: boolean) =>
  z
    .string()
    .optional()
    .transform((s) => (s === undefined || s === "" ? dflt : ["1", "true", "yes", "on"].includes(s.toLowerCase())));

const int = (dflt: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((s) => (s === undefined || s === "" ? dflt : Number(s)))
    .pipe(z.number().int().min(min).max(max));

const ratio = (dflt: number) =>
  z
    .string()
    .optional()
    .transform((s) => (s === undefined || s === "" ? dflt : Number(s)))
    .pipe(z.number().min(0).max(1));

const url = (dflt: string) =>
  z
    .string()
    .optional()
    .transform((s) => (s === undefined || s === "" ? dflt : s.replace(/\/+$/, "")))
    .pipe(z.url());

/**
 * A comma-separated list of API keys, each MIN_KEY_LENGTH to MAX_KEY_LENGTH characters: a short key
 * is guessable, so the service refuses to start with one (the message names the setting, never the key).
 */
const keys = csv.pipe(
  z.array(
    z
      .string()
      .min(MIN_KEY_LENGTH, `a key is at least ${MIN_KEY_LENGTH} characters (a long random string)`)
      .max(MAX_KEY_LENGTH, `a key is at most ${MAX_KEY_LENGTH} characters`),
  ),
);

/** A comma-separated list of web origins (`https://pro.openbb.co`), each kept as the browser sends it. */
const origins = (dflt: readonly string[]) =>
  csv
    // Browsers send the origin lower-cased (scheme and host are case-insensitive).
    .transform((list) => (list.length ? list : [...dflt]).map((o) => o.replace(/\/+$/, "").toLowerCase()))
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s?#]+$/, "an origin is scheme://host[:port], without a path")));

/**
 * Every setting of the service with its default: the one place where defaults live.
 * `.dev.vars.example` lists the same names.
 */
export const configSchema = z.object({
  SERVICE_API_KEYS: keys,
  SERVICE_READ_ONLY_API_KEYS: keys,

  DATABASE_URL: optionalString,
  /** Local only: host:port/path of the WebSocket proxy in front of a plain Postgres (the Pool, for interactive transactions). */
  NEON_WS_PROXY: optionalString,
  /** Local only: the URL of the SQL-over-HTTP endpoint in front of a plain Postgres (every other query). */
  NEON_HTTP_ENDPOINT: optionalString,

  UPSTASH_REDIS_REST_URL: optionalString,
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  MEMORY_CACHE_MAX_ENTRIES: int(5000, 10, 1_000_000),
  /** At most how long a location's Workers Cache keeps an answer that is the same for every key; 0: off. */
  EDGE_CACHE_SECONDS: int(60, 0, 86_400),

  /** Pins the service's clock at this instant (ISO 8601), which then runs on: tests and the sandbox only. */
  CLOCK_PINNED_AT: optionalString.pipe(z.iso.datetime({ offset: true }).optional()),
  /** A request's overall deadline: every provider call of the request fits inside it, fallbacks included. */
  REQUEST_DEADLINE_MS: int(20_000, 500, 120_000),
  /** Deadline of one provider HTTP call; a history over the stream provider gets twice as long. */
  PROVIDER_TIMEOUT_MS: int(8000, 100, 120_000),
  /** Failures in a row (unreachable, timeout, 5xx, 429) after which a provider rests; 0: never. */
  PROVIDER_REST_AFTER_FAILURES: int(3, 0, 100),
  /** How long a provider rests before it is asked again. */
  PROVIDER_REST_SECONDS: int(60, 1, 3600),
  /** A stream-provider connection silent this long (no bar, no heartbeat) is dropped and reopened. */
  STREAM_STALL_MS: int(45_000, 1000, 600_000),
  /**
   * Whether the WebSocket handshake takes a full-access key from its URL (`token`, `api_key`, `key`),
   * as the spec has it. Off by default: URLs reach the platform's logs; full-access clients send a
   * header. Read-only keys are taken from the URL either way.
   */
  WS_FULL_ACCESS_KEY_IN_URL: bool(false),
  /**
   * Local only: `/mcp` without a key is served as the first read-only key, to requests whose Host
   * (and Origin, if any) is loopback; others are refused (DNS rebinding). For the protocol's test
   * tools, which send no key (src/middleware/mcp-loopback.ts). Never set it in production.
   */
  MCP_LOOPBACK_OPEN: bool(false),
  /**
   * Requests a minute a key may make (WebSocket handshakes and tickets included) unless its own
   * `rate_limit` says otherwise: counted by the key's KeyMeter object, told in the RateLimit headers.
   */
  KEY_RATE_LIMIT: int(1000, 1, 100_000_000),
  DELAYED_PROVIDER_BASE_URL: url("https://query2.finance.yahoo.com"),
  STREAM_PROVIDER_WS_URL: url("wss://data.tradingview.com/socket.io/websocket"),
  MACRO_PROVIDER_BASE_URL: url("https://api.stlouisfed.org"),
  MACRO_API_KEY: optionalString,
  /** The ECB's euro reference rates: the daily file's host, and the statistical data API's (history). */
  ECB_BASE_URL: url("https://www.ecb.europa.eu"),
  ECB_DATA_API_BASE_URL: url("https://data-api.ecb.europa.eu"),
  /** Scraped pages of trailing P/E, EPS and dividend yield: US shares, European shares. */
  SCRAPED_BUSINESSINSIDER_BASE_URL: url("https://markets.businessinsider.com"),
  SCRAPED_ONVISTA_BASE_URL: url("https://www.onvista.de"),
  SEC_BASE_URL: url("https://www.sec.gov"),
  SEC_DATA_BASE_URL: url("https://data.sec.gov"),
  /** "Company contact@example.com": EDGAR refuses requests whose agent declares no contact. Without it EDGAR is not asked. */
  SEC_USER_AGENT: optionalString,
  /** EDGAR's requests a second from one isolate: its fair-access rule allows ten (sec.gov is never asked faster); more only for a mirror or the sandbox. */
  SEC_REQUESTS_PER_SECOND: int(8, 1, 1000),

  NEWS_YAHOO_RSS_BASE_URL: url("https://feeds.finance.yahoo.com"),
  NEWS_GOOGLE_RSS_BASE_URL: url("https://news.google.com"),
  NEWS_FINNHUB_BASE_URL: url("https://finnhub.io"),
  NEWS_MARKETAUX_BASE_URL: url("https://api.marketaux.com"),
  NEWS_NEWSAPI_BASE_URL: url("https://newsapi.org"),
  NEWS_ALPHAVANTAGE_BASE_URL: url("https://www.alphavantage.co"),
  NEWS_GDELT_BASE_URL: url("https://api.gdeltproject.org"),
  FINNHUB_API_KEY: optionalString,
  MARKETAUX_API_KEY: optionalString,
  NEWSAPI_API_KEY: optionalString,
  ALPHAVANTAGE_API_KEY: optionalString,

  NEWS_MAX_LIMIT: int(100, 1, 1000),
  NEWS_CACHE_TTL: int(1800, 0, 86_400),
  NEWS_DEDUP_SIMILARITY: ratio(0.85),

  /** Requests a minute the catalogue refresh makes of each price provider, all consumers together. */
  REFRESH_REQUESTS_PER_MINUTE: int(120, 1, 60_000),
  /** Each venue's listings are refreshed after its close by the five-minute trigger (a new instance: the whole catalogue). */
  REFRESH_SCHEDULED: bool(true),
  /** Seconds before a failed listing's first retry (tripled for each next one). */
  REFRESH_RETRY_DELAY_SECONDS: int(30, 0, 3600),

  /** Reads of an ISIN or symbol the catalogue lacks add its instrument (GET /assets/by-isin, /eod, /fundamental). */
  CATALOGUE_DISCOVERY: bool(true),
  /** Attempts to add instruments a key may make per minute (POST /assets items and discoveries): each costs provider calls. */
  CATALOGUE_ADDITIONS_PER_MINUTE: int(30, 1, 10_000),
  /** Discoveries all keys together may attempt per minute, and instruments reads may add per day (UTC). */
  CATALOGUE_DISCOVERIES_PER_MINUTE: int(60, 1, 100_000),
  CATALOGUE_DISCOVERIES_PER_DAY: int(2000, 0, 1_000_000),

  TECHNICAL_CACHE_ENABLED: bool(true),
  TECHNICAL_DEFAULT_LIMIT: int(500, 1, 100_000),
  TECHNICAL_MAX_BATCH_TICKERS: int(20, 1, 1000),
  TECHNICAL_MAX_BATCH_INDICATORS: int(10, 1, 100),

  /** Ratio (0.042 = 4.2 %), used when the macro provider has no value. */
  DCF_RISK_FREE_RATE: z
    .string()
    .optional()
    .transform((s) => (s === undefined || s === "" ? "0.042" : s))
    .pipe(z.string().regex(/^\d+(\.\d+)?$/, "a decimal ratio such as 0.042")),
  /**
   * Equity risk premium of the CAPM cost of equity, a ratio (0.055 = 5.5 %): the market's expected
   * return over the risk-free rate (public tools use 4.5-6 %; Damodaran's implied US premium is near 5).
   */
  DCF_EQUITY_RISK_PREMIUM: ratio(0.055),
  ALERT_SUCCESS_RATE_WARNING: ratio(0.85),
  ALERT_SUCCESS_RATE_CRITICAL: ratio(0.7),
  USAGE_LOG_RETENTION_DAYS: int(90, 1, 3650),

  /**
   * Origins (scheme, host, port; comma-separated) whose pages may call the workspace routes: by
   * default the workspace's own (domain/workspace/origins); a value replaces the list.
   */
  WORKSPACE_ALLOWED_ORIGIN: origins(WORKSPACE_ORIGINS),
  /** Serves GET /__bench/floor, the constant-body route tools/bench measures against; off in production. */
  BENCH_ROUTES: bool(false),

  /** Tickers of the legacy GET /stocks market overview. */
  STOCKS_OVERVIEW_TICKERS: csv.transform((l) =>
    l.length > 0 ? l : ["AAPL", "MSFT", "GOOGL", "AMZN", "NVDA", "META", "TSLA", "MC.PA", "SAP.DE", "ASML.AS"],
  ),
});

export type Config = z.infer<typeof configSchema>;

/** Settings that are not plain strings in the bindings are ignored (e.g. Durable Object namespaces). */
function stringSettings(env: Bindings): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === "string") out[k] = v;
  return out;
}

/**
 * A setting that does not parse. Its message names the settings and what they must be, never their
 * values (a secret may be among them); the HTTP layer answers it with a 500.
 */
export class ConfigError extends Error {
  constructor(
    readonly settings: string[],
    detail: string,
  ) {
    super(`Invalid service configuration: ${detail}`);
    this.name = "ConfigError";
  }
}

const parsed = new WeakMap<object, Config>();

/** A loopback host: this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Settings for a local stack only, refused elsewhere: the Neon proxies in front of a plain Postgres
 * must be on this machine, and the pinned clock and the benchmark routes need a local database (or
 * none), so that a deployment with a real database cannot be left with its clock pinned or the
 * benchmark's routes open.
 */
function localOnlyProblems(config: Config): { setting: string; message: string }[] {
  const problems: { setting: string; message: string }[] = [];
  const hostOf = (value: string) => URL.parse(value.includes("://") ? value : `ws://${value}`)?.hostname ?? "";
  for (const setting of ["NEON_WS_PROXY", "NEON_HTTP_ENDPOINT"] as const) {
    const value = config[setting];
    if (value && !isLoopbackHost(hostOf(value)))
      problems.push({
        setting,
        message: `${setting}: local stacks only, so its host must be this machine (127.0.0.1, localhost)`,
      });
  }
  const remoteDatabase = config.DATABASE_URL !== undefined && !isLoopbackHost(hostOf(config.DATABASE_URL));
  if (remoteDatabase && config.CLOCK_PINNED_AT)
    problems.push({
      setting: "CLOCK_PINNED_AT",
      message: "CLOCK_PINNED_AT: local stacks only, and DATABASE_URL is not on this machine",
    });
  if (remoteDatabase && config.BENCH_ROUTES)
    problems.push({
      setting: "BENCH_ROUTES",
      message: "BENCH_ROUTES: local stacks only, and DATABASE_URL is not on this machine",
    });
  return problems;
}

/**
 * Parses the Worker's env once per env object (isolates reuse it across requests).
 * @example const config = loadConfig(c.env); config.TECHNICAL_DEFAULT_LIMIT // 500
 */
export function loadConfig(env: Bindings): Config {
  const hit = parsed.get(env);
  if (hit) return hit;
  const result = configSchema.safeParse(stringSettings(env));
  if (!result.success) {
    const settings = [...new Set(result.error.issues.map((i) => String(i.path[0] ?? "?")))];
    throw new ConfigError(
      settings,
      result.error.issues.map((i) => `${String(i.path[0] ?? "?")}: ${i.message}`).join("; "),
    );
  }
  const config = result.data;
  const local = localOnlyProblems(config);
  if (local.length)
    throw new ConfigError(
      local.map((p) => p.setting),
      local.map((p) => p.message).join("; "),
    );
  parsed.set(env, config);
  return config;
}
