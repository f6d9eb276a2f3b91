import { findActiveListings } from "../../../db/repositories/catalogue";
import {
  abandonRuns,
  anyRun,
  insertRun,
  latestRuns,
  type RefreshRun,
  type RunTrigger,
  runningRunId,
} from "../../../db/repositories/catalogue-refresh";
import type { Deps } from "../../../deps";
import { REFRESH_VENUES, type RefreshMessage, refreshScope, refreshVenueOf } from "../../../domain/catalogue-refresh";
import { ServiceError } from "../../../domain/errors";

/** A run still unfinished this long after its start is closed by the next start: its consumers are gone. */
const RUN_LIFETIME_MS = 6 * 3_600_000;
/** Messages a queue accepts in one sendBatch. */
const SEND_BATCH = 100;

export interface StartedRefresh {
  run: RefreshRun;
  /** False when another run was already going: this is that run. */
  started: boolean;
}

/**
 * Starts a refresh of the active listings of `venues` (every venue when null) to each venue's last
 * closed session: the run and its listings are stored, then each listing is handed to the
 * `catalogue-refresh` queue. A scheduled start (`cron`) skips a venue on its holidays. One run at a
 * time: while one is going, a start answers that run and starts nothing.
 */
export async function startRefresh({
  ctx,
  input,
}: {
  ctx: Deps;
  input: { trigger: RunTrigger; venues: readonly string[] | null };
}): Promise<StartedRefresh> {
  const queue = ctx.refreshQueue;
  if (!queue)
    throw new ServiceError("UPSTREAM_UNAVAILABLE", "The catalogue-refresh queue is not bound (wrangler.toml)");
  const db = ctx.db.db;
  const at = ctx.clock.now();
  await abandonRuns(
    db,
    { startedBefore: new Date(at.getTime() - RUN_LIFETIME_MS) },
    "not done: the run outlived its lifetime",
    at,
  );
  const running = await runningRunId(db);
  if (running !== null) return { run: await runOf(ctx, running), started: false };

  const scope = refreshScope(input.venues ?? REFRESH_VENUES, at, input.trigger === "cron");
  const items = (await findActiveListings(db, {}))
    .map((l) => ({ listingId: l.id, session: scope.sessions[refreshVenueOf(l.exchange)] }))
    .filter((i): i is { listingId: number; session: string } => i.session !== undefined);
  const runId = await insertRun(db, { trigger: input.trigger, ...scope, at }, items);
  if (runId === null) {
    // Another start won the race between the check and the insert: answer its run.
    const other = await runningRunId(db);
    if (other !== null) return { run: await runOf(ctx, other), started: false };
    throw new ServiceError("UPSTREAM_UNAVAILABLE", "A refresh run was starting; retry in a moment");
  }
  try {
    for (let i = 0; i < items.length; i += SEND_BATCH)
      await queue.sendBatch(
        items.slice(i, i + SEND_BATCH).map((item) => ({ body: { runId, ...item } satisfies RefreshMessage })),
      );
  } catch (err) {
    // Listings that never reached the queue would hold the run open for hours: close it now, said why.
    await abandonRuns(db, { runId }, `not queued: ${String(err)}`, ctx.clock.now());
    throw new ServiceError("UPSTREAM_UNAVAILABLE", "The catalogue-refresh queue refused the run's listings");
  }
  if (items.length === 0) await abandonRuns(db, { runId }, "", ctx.clock.now());
  console.log(
    "catalogue refresh",
    runId,
    "started:",
    items.length,
    "listing(s) queued",
    JSON.stringify(scope.sessions),
    Object.keys(scope.skipped).length ? `skipped ${JSON.stringify(scope.skipped)}` : "",
  );
  return { run: await runOf(ctx, runId), started: true };
}

/**
 * The first refresh of a new instance: when no run has ever been recorded (and REFRESH_FIRST_RUN
 * allows it), the whole catalogue is refreshed to each venue's last close, so that a new
 * deployment or a new local stack serves the catalogue without waiting for the evening triggers.
 * Null when there is nothing to start.
 */
export async function startFirstRefresh({ ctx }: { ctx: Deps }): Promise<StartedRefresh | null> {
  if (!ctx.config.REFRESH_FIRST_RUN || (await anyRun(ctx.db.db))) return null;
  return startRefresh({ ctx, input: { trigger: "first_run", venues: null } });
}

async function runOf(ctx: Deps, runId: number): Promise<RefreshRun> {
  const [run] = await latestRuns(ctx.db.db, 1, runId);
  if (!run) throw new ServiceError("UPSTREAM_UNAVAILABLE", `refresh run ${runId} vanished`);
  return run;
}

/** The latest runs, newest first (GET /catalogue/refresh). */
export async function listRefreshRuns({ ctx, input }: { ctx: Deps; input: { limit: number } }): Promise<RefreshRun[]> {
  return latestRuns(ctx.db.db, input.limit);
}
