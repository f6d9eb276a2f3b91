import type { Context } from "hono";
import { buildDeps, type Deps } from "../deps";
import { pushRests } from "../providers/rest";
import { recordDrifts } from "../services/monitoring/record-drifts";
import type { AppEnv } from "./env";

/** How long background work may take: Workers end `waitUntil` work 30 seconds after the answer. */
const BACKGROUND_DEADLINE_MS = 25_000;

/**
 * Runs `job` after the answer has gone (`waitUntil`), with dependencies of its own (the request's
 * database pool closes with the request), on the request's clock, and the drift it read recorded. A
 * failure is logged, never thrown.
 */
export function inBackground(c: Context<AppEnv>, job: (deps: Deps) => Promise<void>): void {
  const deps = buildDeps(c.env ?? {}, {
    clock: c.get("deps").clock,
    deadlineMs: BACKGROUND_DEADLINE_MS,
    waitUntil: (deferred) => c.executionCtx.waitUntil(deferred),
  });
  const work = job(deps)
    .catch((err: unknown) => console.warn("background work failed", c.req.path, String(err)))
    // Whatever the job came to (a failure may be the drift's doing): its drift is recorded, and a
    // rest it started or ended (the canary's probes) reaches the other isolates.
    .then(() => recordDrifts(deps))
    .then(() => pushRests(deps.cache, deps.clock.now().getTime()))
    .catch((err: unknown) => console.warn("background work's drift or rests not recorded", c.req.path, String(err)))
    .finally(() => deps.close());
  c.executionCtx.waitUntil(work);
}
