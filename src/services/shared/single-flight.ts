import { readLease, releaseLease, tryAcquireLease } from "../../db/repositories/ingest-leases";
import { ServiceError } from "../../domain/errors";
import type { Context } from "../../platform/context";
import { sleep } from "../../platform/sleep";

/** One unit of work on a listing that must not run twice at once. */
export interface FlightJob<T> {
  /** The answer when nothing needs doing (checked before taking the lease and after waiting). */
  isDone(): Promise<T | null>;
  /** The work, run by the lease holder only. */
  run(): Promise<T>;
  /**
   * Whether another holder's outcome answers this job too (it did the same work or more), so a
   * waiter takes it rather than running again, even when the providers had nothing for part of it.
   */
  answers(outcome: T): boolean;
}

/** Kinds of work on a listing that each have their own lease. */
export type FlightScope = "eod" | "insider" | "fundamentals" | "fundamentals_deep" | "etf" | "intraday";

/**
 * A read-through answer built once at a time per listing, whichever isolate asks: the cached
 * answer when there is one (also after waiting for another builder), else the builder's. Every
 * concurrent caller answers what a caller in sequence would: the first one's, or a repeat's.
 */
export function builtOnce<T>(
  ctx: Context,
  listingId: number,
  scope: FlightScope,
  cached: () => Promise<T | null>,
  build: () => Promise<T>,
): Promise<T> {
  return singleFlight(ctx, listingId, { isDone: cached, run: build, answers: () => true }, scope);
}

/** A holder is still at work when the waiter's own deadline comes. */
export class StillRunningError extends ServiceError {
  constructor() {
    super(
      "UPSTREAM_UNAVAILABLE",
      "This listing is being ingested by another request that has not finished yet; retry in a few seconds",
    );
  }
}

/** Lease lifetime when the caller has no deadline (a cron job): longer than any ingestion. */
const NO_DEADLINE_TTL_MS = 120_000;
/** Grace beyond the holder's deadline before its lease is taken as abandoned. */
const TTL_MARGIN_MS = 5_000;
/**
 * A waiter reads the lease after POLL_MS, then each time 1.5 times later, up to POLL_MAX_MS: every
 * read is one subrequest of the Workers plan's budget (50 a request on the free plan), so a
 * 20-second wait costs about 25 reads instead of a hundred.
 */
const POLL_MS = 150;
const POLL_MAX_MS = 1000;

/**
 * Runs `job` for a listing so that concurrent callers, in any isolate, share one run: the caller
 * that takes the listing's lease runs it and leaves its outcome in the lease; the others wait for
 * that outcome (within their own deadline) and answer with it, so every answer is the same
 * whoever did the work. A caller whose window the holder did not cover takes the lease next.
 */
export async function singleFlight<T>(
  ctx: Context,
  listingId: number,
  job: FlightJob<T>,
  /** Work of different kinds on one listing does not wait on each other. */
  scope: FlightScope = "eod",
): Promise<T> {
  const db = ctx.db;
  const holder = crypto.randomUUID();
  const left = ctx.deadline.remainingMs();
  const ttlMs = (Number.isFinite(left) ? left : NO_DEADLINE_TTL_MS) + TTL_MARGIN_MS;
  let shared: T | null = null;
  for (;;) {
    // The outcome of a holder this caller waited for is its answer too: every answer is the same.
    if (shared !== null && job.answers(shared)) return shared;
    const done = await job.isDone();
    if (done !== null) return done;
    if (await tryAcquireLease(db, scope, listingId, holder, ttlMs)) {
      let outcome: T | null = null;
      try {
        outcome = await job.run();
        return outcome;
      } finally {
        await releaseLease(db, scope, listingId, holder, outcome).catch((err: unknown) =>
          console.warn("lease release failed", listingId, String(err)),
        );
      }
    }
    shared = await outcomeOfRunningHolder<T>(ctx, scope, listingId);
  }
}

/** Waits for the listing's current holder to finish; its outcome, or null when its lease expired or passed on. */
async function outcomeOfRunningHolder<T>(ctx: Context, scope: string, listingId: number): Promise<T | null> {
  const first = await readLease(ctx.db, scope, listingId);
  if (!first) return null;
  for (let pause = POLL_MS; ; pause = Math.min(POLL_MAX_MS, Math.round(pause * 1.5))) {
    const lease = await readLease(ctx.db, scope, listingId);
    if (!lease || lease.holder !== first.holder || lease.expired) return null;
    if (lease.finished) return lease.outcome as T | null;
    if (ctx.deadline.remainingMs() <= pause) throw new StillRunningError();
    await sleep(pause + Math.floor(Math.random() * POLL_MS));
  }
}
