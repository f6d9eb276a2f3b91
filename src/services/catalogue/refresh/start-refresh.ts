import { findActiveListings } from "../../../db/repositories/catalogue";
import {
  abandonRuns,
  coveredSessions,
  insertRun,
  latestRuns,
  type RefreshRun,
  type RunTrigger,
  runningRunId,
} from "../../../db/repositories/catalogue-refresh";
import {
  dueScope,
  REFRESH_VENUES,
  type RefreshMessage,
  type RefreshScope,
  refreshVenueOf,
  requestedScope,
} from "../../../domain/catalogue-refresh";
import { ServiceError } from "../../../domain/errors";
import type { Context } from "../../../platform/context";
import { storedReason } from "../../shared/stored-reason";

export type { RefreshRun };

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
 * POST /catalogue/refresh: the active listings of `venues` (every venue when null) refreshed to
 * each venue's last closed session. One run at a time: while one is going, this answers that run.
 */
export function startRefresh({
  ctx,
  input,
}: {
  ctx: Context;
  input: { venues: readonly string[] | null };
}): Promise<StartedRefresh> {
  return startRun(ctx, "request", requestedScope(input.venues ?? REFRESH_VENUES, ctx.clock.now()));
}

/**
 * The scheduled refresh (the five-minute Cron Trigger, REFRESH_SCHEDULED): the venues whose last
 * session closed at least half an hour ago and no run has covered yet (`dueScope`): each venue
 * once per trading day, none on its holidays, a missed day caught up. The first run of a new
 * instance covers the whole catalogue. Null when nothing is due; while a run is going, that run
 * (`started: false`): the next tick starts what is still due then.
 */
export async function startDueRefresh({ ctx }: { ctx: Context }): Promise<StartedRefresh | null> {
  if (!ctx.config.REFRESH_SCHEDULED) return null;
  const at = ctx.clock.now();
  const covered = await coveredSessions(ctx.db, at);
  const scope = dueScope(at, covered);
  if (Object.keys(scope.sessions).length === 0) return null;
  return startRun(ctx, Object.keys(covered).length === 0 ? "first_run" : "cron", scope);
}

/** Runs still open past their lifetime are closed: their consumers are gone. */
function abandonStale(ctx: Context): Promise<number[]> {
  const at = ctx.clock.now();
  return abandonRuns(
    ctx.db,
    { startedBefore: new Date(at.getTime() - RUN_LIFETIME_MS) },
    "not done: the run outlived its lifetime",
    at,
  );
}

/**
 * Stores a run over `scope` and hands each of its listings to the `catalogue-refresh` queue; while
 * another run is going, starts nothing and answers that one.
 */
async function startRun(ctx: Context, trigger: RunTrigger, scope: RefreshScope): Promise<StartedRefresh> {
  const queue = ctx.refreshQueue;
  if (!queue)
    throw new ServiceError("UPSTREAM_UNAVAILABLE", "The catalogue-refresh queue is not bound (wrangler.toml)");
  const db = ctx.db;
  const at = ctx.clock.now();
  await abandonStale(ctx);
  const running = await runningRunId(db);
  if (running !== null) return { run: await runOf(ctx, running), started: false };

  const items = (await findActiveListings(db, {}))
    .map((l) => ({ listingId: l.id, session: scope.sessions[refreshVenueOf(l.exchange)] }))
    .filter((i): i is { listingId: number; session: string } => i.session !== undefined);
  const runId = await insertRun(db, { trigger, ...scope, at }, items);
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
    console.warn("catalogue refresh", runId, "not queued:", String(err));
    await abandonRuns(db, { runId }, `not queued: ${storedReason(err)}`, ctx.clock.now());
    throw new ServiceError("UPSTREAM_UNAVAILABLE", "The catalogue-refresh queue refused the run's listings");
  }
  if (items.length === 0) await abandonRuns(db, { runId }, "", ctx.clock.now());
  console.log(
    "catalogue refresh",
    runId,
    `(${trigger}) started:`,
    items.length,
    "listing(s) queued",
    JSON.stringify(scope.sessions),
    Object.keys(scope.skipped).length ? `left out ${JSON.stringify(scope.skipped)}` : "",
  );
  return { run: await runOf(ctx, runId), started: true };
}

async function runOf(ctx: Context, runId: number): Promise<RefreshRun> {
  const [run] = await latestRuns(ctx.db, 1, runId);
  if (!run) throw new ServiceError("UPSTREAM_UNAVAILABLE", `refresh run ${runId} vanished`);
  return run;
}

/** The latest runs, newest first (GET /catalogue/refresh). */
export async function listRefreshRuns({
  ctx,
  input,
}: {
  ctx: Context;
  input: { limit: number };
}): Promise<RefreshRun[]> {
  return latestRuns(ctx.db, input.limit);
}
