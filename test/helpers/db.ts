import { env } from "cloudflare:workers";
import type { Db } from "../../src/db/client";
import { buildDeps } from "../../src/deps";

/** Runs `work` with a database handle of the test Worker's settings, closed afterwards. */
export async function withDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const handle = buildDeps(env).db;
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}
