import type { Clock } from "./clock";
import { buildDeps, type Deps } from "./deps";
import type { Bindings } from "./env";
import type { Context, RunWork } from "./platform/context";
import { isolate } from "./providers/isolate";
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
      await isolate.rests.pushRests(deps.cache, deps.clock.now().getTime()).catch(() => undefined);
      await deps.close();
    }
  };
}

/** How long background work may take: Workers end `waitUntil` work 30 seconds after the answer. */
const BACKGROUND_DEADLINE_MS = 25_000;

/**
 * Runs `job` after a request's answer has gone, kept alive by `waitUntil`, with dependencies of its
 * own (the request's database closes with the request) on the request's clock; whatever the job
 * came to (a failure may be the drift's doing), its drift is recorded and a rest it started or
 * ended (the canary's probes) reaches the other isolates. A failure is logged, never thrown.
 */
export function runAfterAnswer(
  env: Bindings,
  clock: Clock,
  waitUntil: (work: Promise<unknown>) => void,
  job: (ctx: Context) => Promise<void>,
  what: string,
): void {
  const deps: Deps = buildDeps(env, { clock, deadlineMs: BACKGROUND_DEADLINE_MS, waitUntil });
  const work = job(deps)
    .catch((err: unknown) => console.warn("background work failed", what, String(err)))
    .then(() => recordDrifts(deps))
    .then(() => isolate.rests.pushRests(deps.cache, deps.clock.now().getTime()))
    .catch((err: unknown) => console.warn("background work's drift or rests not recorded", what, String(err)))
    .finally(() => deps.close());
  waitUntil(work);
}
