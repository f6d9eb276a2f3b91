import { inOneTransaction } from "../../db/batch";
import { readAdjustmentCheck, readCheckInputs, saveAdjustmentCheck } from "../../db/repositories/corporate-actions";
import { BAR_SCOPE, keptFindings, replaceFindings, sameFindings } from "../../db/repositories/price-findings";
import { adjustmentMismatches } from "../../domain/corporate-actions";
import { catalogueVenue } from "../../domain/market-hours";
import { priceFindings } from "../../domain/price-sanity-net";
import type { StoredPrecision } from "../../domain/provider-precision";
import type { Context } from "../../platform/context";

/** Mismatches a check keeps for the operator (the count has them all). */
const MISMATCHES_KEPT = 5;

/**
 * The checks of a listing's stored prices, run after each ingestion that wrote bars or heard from
 * the delayed provider (so every refresh too), from one read of its bars and events:
 * - the adjusted closes stored from the delayed provider against its stored dividends and splits
 *   (stream-sourced bars carry no adjustment: they wait to be replaced, and are left out), each
 *   step held to the tolerance of the prices' precision;
 * - the price sanity net over every stored bar (domain/price-sanity), whose findings replace the
 *   listing's earlier ones.
 * `wholeSpanStored`: this ingestion stored every delayed bar of the listing at the provider's
 * precision (its first, or its whole span asked again); otherwise the precision recorded before stands.
 */
export async function checkPrices(
  ctx: Context,
  listing: { id: number; exchange: string | null },
  wholeSpanStored: boolean,
): Promise<void> {
  const db = ctx.db;
  const [inputs, before] = await Promise.all([
    readCheckInputs(db, listing.id, ctx.providers.delayed.name),
    wholeSpanStored ? null : readAdjustmentCheck(db, listing.id),
  ]);
  const precision: StoredPrecision = wholeSpanStored ? "full" : (before?.precision ?? "price_hint");
  const delayed = inputs.bars.filter((b) => b.fromSource);
  const mismatches = adjustmentMismatches(delayed, inputs.dividends, inputs.splits, precision);
  const findings = priceFindings({
    bars: inputs.bars,
    splits: inputs.splits,
    venue: catalogueVenue(listing.exchange),
  });
  const now = ctx.clock.now();
  const kept = keptFindings(findings.filter((f) => BAR_SCOPE.kinds.includes(f.kind)));
  // One transaction; the findings are written only when they changed (a refresh with nothing new
  // writes none). The check's upsert comes first: two checks of one listing at once (two isolates)
  // wait on its row, so their findings' delete and insert never interleave.
  await inOneTransaction(db, [
    saveAdjustmentCheck(db, listing.id, {
      precision,
      checkedAt: now,
      bars: delayed.length,
      dividends: inputs.dividends.length,
      splits: inputs.splits.length,
      mismatches: mismatches.length,
      detail: mismatches.slice(0, MISMATCHES_KEPT),
    }),
    ...(sameFindings(inputs.findings, kept) ? [] : replaceFindings(db, listing.id, BAR_SCOPE, kept, now)),
  ]);
}
