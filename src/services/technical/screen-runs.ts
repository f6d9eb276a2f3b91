import type { ScreenMatch } from "../../db/repositories/indicator-snapshots";
import { countInstruments, readShare } from "../../db/repositories/screen-bars";
import {
  claimResend,
  doneShares,
  type RunState,
  readRun,
  runById,
  saveShare,
  screenRunMatches,
  shareDone,
  startRun,
} from "../../db/repositories/screen-runs";
import { NotFoundError, RateLimitedError, ServiceError } from "../../domain/errors";
import { indicatorSpec } from "../../domain/indicators/catalogue";
import { paramsKey } from "../../domain/indicators/snapshots";
import type { IndicatorSpec, Params } from "../../domain/indicators/spec";
import { DAY_MS, isoDay } from "../../domain/instants";
import type { ScreenQuery } from "../../domain/screen-query";
import {
  runKey,
  runShares,
  SCREEN_RUNS_PER_DAY,
  type ScreenRunMessage,
  syncInstrumentCap,
} from "../../domain/screen-runs";
import type { Context, RunWork } from "../../platform/context";
import { type DailyResolution, lastValues, type ScreenReadPlan, screenReadPlan } from "./screen-values";

export const SCREEN_QUEUE_NAME = "screen-runs";
/** Messages per sendBatch (the queue's limit). */
const MESSAGES_PER_SEND = 100;
/**
 * A run that made no progress for this long (no share finished since its start or its last share)
 * has lost messages: its missing shares are sent again, by one request, at most once a period.
 */
const STALLED_MS = 10 * 60_000;

/** A queued run as a client polls it. */
export interface RunView {
  id: number;
  indicator: string;
  params: Params;
  resolution: string;
  day: string;
  status: "running" | "finished";
  shares: number;
  shares_done: number;
  /** Instruments computed so far, and those without enough bars among them. */
  instruments: number;
  skipped: number;
  started_at: string;
  finished_at: string | null;
  /** Where to poll it. */
  poll: string;
}

/** The answer while the day's run of a screen is computed (202). */
export interface QueuedScreen {
  status: "running";
  message: string;
  run: RunView;
}

export const runView = (r: RunState): RunView => ({
  id: r.id,
  indicator: r.indicator,
  params: JSON.parse(r.params) as Params,
  resolution: r.resolution,
  day: r.day,
  status: r.finishedAt ? "finished" : "running",
  shares: r.shares,
  shares_done: r.sharesDone,
  instruments: r.instruments,
  skipped: r.skipped,
  started_at: r.startedAt.toISOString(),
  finished_at: r.finishedAt?.toISOString() ?? null,
  poll: `/technical/screen/runs/${r.id}`,
});

async function sendShares(ctx: Context, runId: number, shares: readonly number[]): Promise<void> {
  const queue = ctx.screenQueue;
  if (!queue) throw new ServiceError("UPSTREAM_UNAVAILABLE", "The screen-runs queue is not bound (wrangler.toml)");
  for (let i = 0; i < shares.length; i += MESSAGES_PER_SEND)
    await queue.sendBatch(shares.slice(i, i + MESSAGES_PER_SEND).map((share) => ({ body: { runId, share } })));
}

/**
 * A screen answered from the day's run of its indicator, parameters and resolution: the matches
 * once every share is computed; else the run as it stands (the first request starts it, at most
 * SCREEN_RUNS_PER_DAY a day; a run whose messages were lost is sent again on a later request).
 */
export async function screenFromRun(
  ctx: Context,
  r: {
    query: ScreenQuery & { resolution: DailyResolution };
    spec: IndicatorSpec;
    params: Params;
    plan: ScreenReadPlan;
  },
): Promise<{ matches: ScreenMatch[]; total: number; screened: number; skipped: number; runId: number } | QueuedScreen> {
  const state = await dayRun(ctx, { spec: r.spec, params: r.params, resolution: r.query.resolution, plan: r.plan });
  if (state.finishedAt) {
    const found = await screenRunMatches(ctx.db, {
      runId: state.id,
      operator: r.query.operator,
      value: r.query.value,
      limit: r.query.limit,
    });
    return { ...found, screened: state.instruments - state.skipped, skipped: state.skipped, runId: state.id };
  }
  return queuedAnswer(state, r.query.mode === "queued" ? "was asked queued" : readsTooMuch(r.plan));
}

/** Why a screen is queued: it reads more bars than an answer reads at once. */
export const readsTooMuch = (plan: ScreenReadPlan) =>
  `its screen reads more bars than an answer reads at once (at most ${syncInstrumentCap(plan.read.bars)} instruments)`;

/** The 202 of a screen whose day's run is still computed. */
export function queuedAnswer(state: RunState, why: string): QueuedScreen {
  const run = runView(state);
  return {
    status: "running",
    message: `${state.indicator} ${state.params} on ${state.resolution} bars is not kept as a snapshot, and ${why}: it is computed in the background for today, ${state.sharesDone} of ${state.shares} shares done. Ask again (or poll ${run.poll}); the finished run answers any threshold today, with the bars stored when it ran.`,
    run,
  };
}

/**
 * The day's run of an indicator, parameters and resolution, as it stands: started by the first
 * request that needs it (at most SCREEN_RUNS_PER_DAY a day, a 429 after), sent again when it made
 * no progress for STALLED_MS (its messages were lost).
 */
export async function dayRun(
  ctx: Context,
  r: { spec: IndicatorSpec; params: Params; resolution: DailyResolution; plan: ScreenReadPlan },
): Promise<RunState> {
  const db = ctx.db;
  // The day from the same instant: a request at midnight keys and refuses by one day.
  const now = ctx.clock.now();
  const day = isoDay(now);
  const identity = { indicator: r.spec.name, params: paramsKey(r.params), resolution: r.resolution, day };
  const key = runKey(identity);
  const state = await readRun(db, { key });
  if (state?.finishedAt) return state;
  if (!state) {
    if (!ctx.screenQueue)
      throw new ServiceError("UPSTREAM_UNAVAILABLE", "The screen-runs queue is not bound (wrangler.toml)");
    const shares = runShares(await countInstruments(db), r.plan.read.bars);
    const { run, created } = await startRun(
      db,
      { ...identity, key, shares, requestedBy: ctx.caller?.kind ?? null, startedAt: now },
      SCREEN_RUNS_PER_DAY,
    );
    if (!run) {
      const midnight = Date.parse(`${day}T00:00:00Z`) + DAY_MS;
      throw new RateLimitedError(
        `${SCREEN_RUNS_PER_DAY} queued screens were started today, the most a day; screen a declared length, or ask tomorrow`,
        Math.max(1, Math.ceil((midnight - now.getTime()) / 1000)),
      );
    }
    // A failed send leaves the run to the resend of a stalled run (a later request).
    if (created)
      await sendShares(
        ctx,
        run.id,
        Array.from({ length: shares }, (_, i) => i),
      );
    const started = await readRun(db, { key });
    if (!started) throw new Error(`screen run ${key} was started but cannot be read back`);
    return started;
  }
  if (await claimResend(db, state.id, now, STALLED_MS)) {
    // No progress for long: its messages were lost (a stopped stack, a purged queue, a dead letter).
    const done = await doneShares(db, state.id);
    await sendShares(
      ctx,
      state.id,
      Array.from({ length: state.shares }, (_, i) => i).filter((i) => !done.has(i)),
    );
  }
  return state;
}

/** The day's run of a key if it exists and is finished; null otherwise (nothing is started). */
export async function finishedDayRun(
  ctx: Context,
  r: { indicator: string; params: string; resolution: DailyResolution },
): Promise<RunState | null> {
  const day = isoDay(ctx.clock.now());
  const state = await readRun(ctx.db, { key: runKey({ ...r, day }) });
  return state?.finishedAt ? state : null;
}

/** GET /technical/screen/runs/{id}: a run as it stands. */
export async function getScreenRun(ctx: Context, id: number): Promise<RunView> {
  const state = await readRun(ctx.db, { id });
  if (!state) throw new NotFoundError("Screen run", String(id));
  return runView(state);
}

const isMessage = (b: unknown): b is ScreenRunMessage => {
  const m = b as Partial<ScreenRunMessage> | null;
  return typeof m?.runId === "number" && typeof m.share === "number";
};

/**
 * The `screen-runs` queue's consumer: each message is one share of a run, whose instruments' bars
 * are read and last values computed as the synchronous screen computes them, then stored with the
 * share in one transaction. A failure is retried; a redelivered share writes nothing new.
 */
export async function consumeScreenRuns(batch: MessageBatch<unknown>, run: RunWork): Promise<void> {
  for (const m of batch.messages) {
    if (!isMessage(m.body)) {
      console.warn("screen runs: a message that is not a share of a run, dropped", JSON.stringify(m.body));
      m.ack();
      continue;
    }
    const { runId, share } = m.body;
    try {
      await run(async (deps) => {
        const run = await runById(deps.db, runId);
        const spec = run ? indicatorSpec(run.indicator) : undefined;
        if (!run || !spec || run.resolution === "1min") return; // gone, or not a screen's: nothing to do
        // A share sent again (a resend, a lost acknowledgement) is not read a second time.
        if (await shareDone(deps.db, runId, share)) return;
        const params = JSON.parse(run.params) as Params;
        const plan = screenReadPlan(spec, params, run.resolution as DailyResolution);
        const rows = await readShare(deps.db, plan.read, run.shares, share);
        const { values, skipped } = lastValues(rows, spec, params, plan);
        await saveShare(deps.db, {
          runId,
          share,
          values: values.map((v) => ({
            assetId: v.row.assetId,
            listingId: v.row.listingId,
            value: v.value,
            asOf: v.last.date,
          })),
          instruments: rows.length,
          skipped,
          at: deps.clock.now(),
        });
      });
      m.ack();
    } catch (err) {
      console.warn("screen run", runId, "share", share, "attempt", m.attempts, "failed:", String(err));
      m.retry({ delaySeconds: 5 * m.attempts });
    }
  }
}
