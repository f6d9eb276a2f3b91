import { env } from "cloudflare:workers";
import type { Db } from "../../src/db/client";
import { buildDeps } from "../../src/deps";

/** Runs `work` with a database handle of the test Worker's settings, closed afterwards. */
export async function withDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const deps = buildDeps(env);
  try {
    return await work(deps.db);
  } finally {
    await deps.close();
  }
}
