import type { ListingRow } from "../../db/repositories/catalogue";
import type { DateRange } from "../../domain/ingest-plan";
import { type IngestReport, reportWithoutFetch } from "../../domain/ingest-report";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { singleFlight } from "../shared/single-flight";
import { type KnownSpans, planOf } from "./gather-ingest";
import { runPlan } from "./store-ingest";

/**
 * Stores what is missing of `wanted` for a listing (spec /eod rule 2): the delayed provider with
 * the listing's verified symbol first, the stream provider as fallback; bars stored from the stream
 * provider are replaced by the delayed provider's when it answers. One ingestion per listing at a
 * time across every isolate (a lease in Postgres): concurrent callers wait for it and answer with
 * its report. Batched idempotent upserts; a provider failure is reported, never thrown.
 */
export async function ingestListing({
  ctx,
  input,
}: {
  ctx: Context;
  /** `known`: the listing's spans as the caller read them just before, for the first check. */
  input: { listing: ListingRow; wanted: DateRange; today: string; known?: KnownSpans };
}): Promise<IngestReport> {
  const { listing, wanted, today } = input;
  let known = input.known;
  const upToDate = reportWithoutFetch(wanted, "up_to_date");
  return singleFlight<IngestReport>(ctx, listing.id, {
    // A holder that worked on this window or a wider one answers for us, failures included (one
    // failing fetch per wave of requests, not one each), unless it failed for want of time.
    answers: (r) =>
      r.wanted.from <= wanted.from &&
      r.wanted.to >= wanted.to &&
      !(r.status === "failed" && r.errors.some((e) => e.unasked)),
    // Nothing missing: no lease, no provider call. Stream-sourced bars alone are retried at most every RETRY window.
    isDone: async () => {
      // The caller's spans hold for the first check only: after a wait, another holder has written.
      const plan = await planOf(ctx, listing, wanted, known);
      known = undefined;
      return plan.requested.length === 0 && (plan.replaced.length === 0 || !(await replacementDue(ctx, listing.id)))
        ? upToDate
        : null;
    },
    run: async () => {
      const plan = await planOf(ctx, listing, wanted);
      if (plan.requested.length === 0 && plan.replaced.length === 0) return upToDate;
      if (plan.replaced.length > 0) await noteReplacementTried(ctx, listing.id);
      return runPlan(ctx, listing, plan, today);
    },
  });
}

/** Stream-sourced bars are asked of the delayed provider again at most this often, so a provider still down costs one call per window. */
const REPLACEMENT_RETRY_SECONDS = 900;

async function replacementDue(ctx: Context, listingId: number): Promise<boolean> {
  return (await ctx.cache.get<boolean>(cacheKeys.replacementTried(listingId))) === null;
}

async function noteReplacementTried(ctx: Context, listingId: number): Promise<void> {
  await ctx.cache.set(cacheKeys.replacementTried(listingId), true, REPLACEMENT_RETRY_SECONDS);
}
