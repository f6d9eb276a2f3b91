import { Pool, neonConfig } from "@neondatabase/serverless";
import { type NeonDatabase, drizzle } from "drizzle-orm/neon-serverless";
import type { Config } from "../env";
import { ServiceError } from "../errors";
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

/**
 * A request's database: the Neon pool is opened on first use and closed by `close()`
 * (Workers forbid sharing sockets between requests, so a pool never outlives its request).
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
    // An idle client that errors (server restart) must not become an unhandled rejection.
    this.pool.on("error", (err: unknown) => console.warn("database pool error", err instanceof Error ? err.message : (err as { message?: string })?.message ?? String(err)));
    this.database = drizzle({ client: this.pool, schema });
    return this.database;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.database = undefined;
    if (pool) await pool.end().catch(() => undefined);
  }
}
