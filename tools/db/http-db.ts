import { type Db, DbHandle } from "../../src/db/client";
import { startNeonLocal } from "./neon-local";

/** Neon's own hosts answer SQL over HTTP themselves. */
const NEON_HOST = /\.neon\.(tech|build)$/i;

/**
 * Runs `work` with the database at `url` as the Worker reaches it (the Neon driver over HTTP), so
 * that a tool writes through the service's own repositories: Neon's endpoint for a Neon host, else
 * a local SQL-over-HTTP endpoint in front of the Postgres at `url` (over TLS when its `sslmode`
 * asks), started for the work and closed after.
 */
export async function withHttpDb<T>(url: string, work: (db: Db) => Promise<T>): Promise<T> {
  const target = new URL(url);
  if (NEON_HOST.test(target.hostname))
    return work(new DbHandle({ DATABASE_URL: url, NEON_HTTP_ENDPOINT: undefined, NEON_WS_PROXY: undefined }).db);
  const sslmode = target.searchParams.get("sslmode") ?? "";
  const local = await startNeonLocal({
    host: target.hostname,
    port: Number(target.port || 5432),
    ssl: ["require", "verify-ca", "verify-full"].includes(sslmode),
  });
  try {
    return await work(new DbHandle({ DATABASE_URL: url, ...local.vars }).db);
  } finally {
    await local.close();
  }
}
