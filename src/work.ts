import { buildDeps } from "./deps";
import type { Bindings } from "./env";
import type { RunWork } from "./platform/context";
import { pushRests } from "./providers/rest";
import { recordDrifts } from "./services/monitoring/record-drifts";

/**
 * The runner of work outside a request for one environment (a cron trigger's, a queue batch's):
 * each run builds dependencies of its own with no request deadline; after it, the schema drift
 * its clients read around is recorded, any provider rest it started is shared with the other
 * isolates, and its database is closed.
 */
export function runWork(env: Bindings): RunWork {
  return async (work, opts = {}) => {
    const deps = buildDeps(env, { ...opts, deadlineMs: Number.POSITIVE_INFINITY });
    try {
      return await work(deps);
    } finally {
      await recordDrifts(deps).catch((err: unknown) => console.warn("schema drift not recorded", String(err)));
      await pushRests(deps.cache, deps.clock.now().getTime()).catch(() => undefined);
      await deps.close();
    }
  };
}
