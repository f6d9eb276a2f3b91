import { buildDeps, type Deps, type DepsOptions } from "../../deps";
import type { Bindings } from "../../env";
import { pushRests } from "../../providers/rest";
import { recordDrifts } from "../monitoring/record-drifts";

/**
 * Runs work outside a request (a cron job, a queue consumer) with dependencies of its own and no
 * request deadline; after it, the schema drift its clients read around is recorded, any provider
 * rest it started is shared with the other isolates, and its database handle is closed.
 */
export async function withWorkDeps<T>(
  env: Bindings,
  work: (deps: Deps) => Promise<T>,
  opts: Omit<DepsOptions, "deadlineMs"> = {},
): Promise<T> {
  const deps = buildDeps(env, { ...opts, deadlineMs: Number.POSITIVE_INFINITY });
  try {
    return await work(deps);
  } finally {
    await recordDrifts(deps).catch((err: unknown) => console.warn("schema drift not recorded", String(err)));
    await pushRests(deps.cache, deps.clock.now().getTime()).catch(() => undefined);
    await deps.db.close();
  }
}
