import { neon, neonConfig, Pool } from "@neondatabase/serverless";
import { type NeonHttpDatabase, drizzle as overHttp } from "drizzle-orm/neon-http";
import { type NeonDatabase, drizzle as overPool } from "drizzle-orm/neon-serverless";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { ServiceError } from "../domain/errors";
import type { Config } from "../env";
import * as schema from "./schema";

/**
 * The database of a unit of work, over Neon's SQL-over-HTTP: each query (or `batch`, a
 * non-interactive transaction) is one round trip with no connection to set up, which at the edge,
 * an ocean from the database, is most of a request's latency.
 */
export type Db = NeonHttpDatabase<typeof schema>;
/** The database over a Pool's connection: only for a transaction that reads before it writes. */
export type PooledDb = NeonDatabase<typeof schema>;
/** What both can run: a repository's read that serves either. */
export type Queryable = PgDatabase<PgQueryResultHKT, typeof schema>;
/** An open interactive transaction (over a pooled connection). */
export type Transaction = Parameters<Parameters<PooledDb["transaction"]>[0]>[0];
/** Runs work in one interactive transaction: committed when it resolves, rolled back when it throws. */
export type Transact = <T>(work: (tx: Transaction) => Promise<T>) => Promise<T>;

type LocalEndpoints = Pick<Config, "NEON_WS_PROXY" | "NEON_HTTP_ENDPOINT">;

/** Neon's own endpoints, derived from the connection string's host (production). */
const neonHttpEndpoint = neonConfig.fetchEndpoint;
/** Local endpoints by the database's `host:port` (the driver's settings are process-wide). */
const localHttp = new Map<string, string>();
const localWs = new Map<string, string>();
const hostKey = (host: string, port: number | string) => `${host}:${port || 5432}`;

/**
 * Points the Neon driver at local endpoints in front of a plain Postgres (development, tests) for
 * the database at `url`'s host and port only: another database of the same isolate (a test's
 * unreachable one) keeps its own, whatever the order of their queries.
 */
function useLocalEndpoints(url: string, { NEON_WS_PROXY: ws, NEON_HTTP_ENDPOINT: http }: LocalEndpoints): void {
  if (!ws && !http) return;
  const { hostname, port } = new URL(url);
  const key = hostKey(hostname, port);
  if (http && localHttp.get(key) !== http) {
    localHttp.set(key, http);
    neonConfig.fetchEndpoint = (host, p, opts) =>
      localHttp.get(hostKey(host, p)) ??
      (typeof neonHttpEndpoint === "function" ? neonHttpEndpoint(host, p, opts) : neonHttpEndpoint);
  }
  if (ws && localWs.get(key) !== ws) {
    localWs.set(key, ws);
    neonConfig.wsProxy = (host, p) => localWs.get(hostKey(host, p)) ?? `${host}/v2`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
}

const notConfigured = () => new ServiceError("UPSTREAM_UNAVAILABLE", "The database is not configured (DATABASE_URL)");

/**
 * The query handle of a service without a database: a context holding it can be built, copied and
 * spread (a health check needs none), and the first query answers the 503. Not a thenable, so an
 * `await` of it does not throw either.
 */
const UNCONFIGURED = new Proxy({} as Db, {
  get(_target, prop) {
    if (prop === "then") return undefined;
    throw notConfigured();
  },
});

/** How long `close()` waits for the pool's sockets to finish closing. */
const CLOSE_WAIT_MS = 2000;

/**
 * A unit of work's database (a request, one write of a Durable Object, a cron job). `db` speaks
 * HTTP and holds nothing open; `pooled` opens a Neon Pool on first use, closed by `close()`, since
 * Workers forbid sharing sockets between requests and a socket kept open across a long-lived
 * object's events dies with the isolate's.
 */
export class DbHandle {
  private pool: Pool | undefined;
  private pooledDb: PooledDb | undefined;
  private httpDb: Db | undefined;

  constructor(private readonly config: Pick<Config, "DATABASE_URL"> & LocalEndpoints) {}

  get configured(): boolean {
    return this.config.DATABASE_URL !== undefined;
  }

  private get url(): string {
    const url = this.config.DATABASE_URL;
    if (!url) throw notConfigured();
    useLocalEndpoints(url, this.config);
    return url;
  }

  /** The query handle; without DATABASE_URL one whose every use throws the 503 (reading it does not). */
  get db(): Db {
    if (!this.configured) return UNCONFIGURED;
    this.httpDb ??= overHttp({ client: neon(this.url), schema });
    return this.httpDb;
  }

  /** An interactive transaction (a lock, a read, then writes that depend on it) over the pool. */
  readonly transaction: Transact = (work) => this.pooled.transaction(work);

  private get pooled(): PooledDb {
    if (this.pooledDb) return this.pooledDb;
    this.pool = new Pool({ connectionString: this.url, max: 4 });
    const pool = this.pool;
    // An idle client that errors (server restart) must not become an unhandled rejection. Once the
    // pool is closing, its sockets' teardown errors are expected and not reported.
    pool.on("error", (err: unknown) => {
      if (this.pool === pool)
        console.warn(
          "database pool error",
          err instanceof Error ? err.message : ((err as { message?: string })?.message ?? String(err)),
        );
    });
    this.pooledDb = overPool({ client: pool, schema });
    return this.pooledDb;
  }

  /**
   * Ends the pool, if one was opened, and waits (at most CLOSE_WAIT_MS) until each of its sockets
   * has closed: `end()` resolves before that, and the caller's `waitUntil` must cover the whole
   * close handshake.
   */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.pooledDb = undefined;
    if (!pool) return;
    let left = pool.totalCount;
    const removed = new Promise<void>((resolve) => {
      if (left === 0) return resolve();
      const timer = setTimeout(resolve, CLOSE_WAIT_MS);
      pool.on("remove", () => {
        left -= 1;
        if (left <= 0) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    await pool.end().catch(() => undefined);
    await removed;
  }
}
