import type { ListingRow } from "../../db/repositories/catalogue";
import {
  type AdjustmentCheck,
  readAdjustmentCheck,
  readCorporateActions,
  type StoredDividend,
  type StoredSplit,
} from "../../db/repositories/corporate-actions";
import { FULL_PRECISION_TOLERANCE } from "../../domain/corporate-actions";
import { BadRequestError } from "../../domain/errors";
import { dayBefore } from "../../domain/ingest-plan";
import { tenYearsBefore } from "../../domain/periods";
import type { Context } from "../../platform/context";
import { ingestListing } from "../eod/ingest-listing";
import { type ListingQuery, resolveListing } from "../shared/resolve-listing";

export type CorporateActionKind = "dividends" | "splits";

export interface CorporateActionsQuery extends ListingQuery {
  from?: string;
  to?: string;
}

export interface CorporateActions {
  listing: ListingRow;
  window: { from: string | null; to: string | null };
  dividends: StoredDividend[];
  splits: StoredSplit[];
  check: AdjustmentCheck | null;
  tolerance: number;
  /** Why the stored events may be short of the provider's (it failed while they were topped up). */
  warning: string | null;
}

/**
 * A listing's dividends and splits as stored with its prices (spec-free route, EODHD's
 * /div and /splits): the prices are first made sure of as /eod would (ten years, topped up to the
 * last session), which stores the events that come with them; then the stored events of the
 * window, with the listing's latest check of its adjusted closes against them.
 */
export async function getCorporateActions({
  ctx,
  input,
}: {
  ctx: Context;
  input: CorporateActionsQuery;
}): Promise<CorporateActions> {
  // Either end may be left open: all events since, or until, a day.
  if (input.from && input.to && input.from > input.to)
    throw new BadRequestError(`from (${input.from}) is after to (${input.to})`);
  const listing = await resolveListing({ ctx, input });
  const today = ctx.clock.today();
  const report = await ingestListing({
    ctx,
    input: { listing, wanted: { from: tenYearsBefore(today), to: dayBefore(today) }, today },
  });
  const [events, check] = await Promise.all([
    readCorporateActions(ctx.db, listing.id, { from: input.from, to: input.to }),
    readAdjustmentCheck(ctx.db, listing.id),
  ]);
  // Events come from the delayed provider alone: its failure leaves them short, whoever stored the bars.
  const delayedName = ctx.providers.delayed.name;
  const failed = report.errors
    .filter((e) => e.provider === delayedName)
    .map((e) => e.message)
    .join("; ");
  const warning = failed
    ? `the delayed provider failed, so the stored events may be short: ${failed}`
    : check === null
      ? "this listing's dividends and splits have not been read yet (its prices came from another provider, or were stored before events were); they come with its next refresh"
      : null;
  return {
    listing,
    window: { from: input.from ?? null, to: input.to ?? null },
    ...events,
    check,
    tolerance: FULL_PRECISION_TOLERANCE,
    warning,
  };
}
