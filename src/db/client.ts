import { neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle, type NeonDatabase } from "drizzle-orm/neon-serverless";
import { ServiceError } from "../domain/errors";
import type { Config } from "../env";
import * as schema from "./schema";

export type Db = NeonDatabase<typeof schema>;

/**
 * Points the Neon driver at a local WebSocket proxy in front of a plain Postgres (development, tests).
 * Process-wide on purpose: one isolate serves one configuration.
 */
function useLocalProxy(proxy: string): void {
  neonConfig.wsProxy = () => proxy;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
}

/** How long `close()` waits for the pool's sockets to finish closing. */
const CLOSE_WAIT_MS = 2000;

/**
 * A unit of work's database (a request, one write of a Durable Object, a cron job): the Neon pool
 * is opened on first use and closed by `close()`, since Workers forbid sharing sockets between
 * requests and a socket kept open across a long-lived object's events dies with the isolate's.
 */
export class DbHandle {
  private pool: Pool | undefined;
  private database: Db | undefined;

  constructor(private readonly config: Pick<Config, "DATABASE_URL" | "NEON_WS_PROXY">) {}

  get configured(): boolean {
    return this.config.DATABASE_URL !== undefined;
  }

  get db(): Db {
    if (this.database) return this.database;
    const url = this.config.DATABASE_URL;
    if (!url) throw new ServiceError("UPSTREAM_UNAVAILABLE", "The database is not configured (DATABASE_URL)");
    if (this.config.NEON_WS_PROXY) useLocalProxy(this.config.NEON_WS_PROXY);
    this.pool = new Pool({ connectionString: url, max: 4 });
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
    this.database = drizzle({ client: this.pool, schema });
    return this.database;
  }

  /**
   * Ends the pool and waits (at most CLOSE_WAIT_MS) until each of its sockets has closed: `end()`
   * resolves before that, and the caller's `waitUntil` must cover the whole close handshake.
   */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.database = undefined;
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
