import { adjustmentSummary } from "../../db/repositories/corporate-actions";
import { verdictCounts } from "../../db/repositories/monitoring";
import type { Deps } from "../../deps";
import { ADJUSTMENT_TOLERANCE } from "../../domain/corporate-actions";
import { validationStatistics } from "../../domain/monitoring/validation-stats";

const WEEK_MS = 7 * 86_400_000;
/** Listings named in the answer whose adjusted closes disagree with their events. */
const DISAGREEING_SHOWN = 10;

/** Where the stored adjusted closes disagree with the stored dividends and splits (the checks of the ingestions). */
export async function priceAdjustments(ctx: Deps) {
  const s = await adjustmentSummary(ctx.db.db, DISAGREEING_SHOWN);
  return {
    tolerance: ADJUSTMENT_TOLERANCE,
    listings_checked: s.checked,
    listings_disagreeing: s.disagreeing,
    last_checked_at: s.lastCheckedAt?.toISOString() ?? null,
    disagreeing: s.listings.map((l) => ({
      ticker: l.ticker,
      exchange: l.exchange,
      isin: l.isin,
      mismatches: l.mismatches,
      checked_at: l.checkedAt.toISOString(),
      first: l.detail[0] ?? null,
    })),
  };
}

/** GET /health/stats: the validation layer's verdicts of the last 7 days, and the price-adjustment checks. */
export async function getValidationStats({ ctx }: { ctx: Deps }) {
  const [counts, adjustments] = await Promise.all([
    verdictCounts(ctx.db.db, new Date(ctx.clock.now().getTime() - WEEK_MS)),
    priceAdjustments(ctx),
  ]);
  return { ...validationStatistics(counts), price_adjustments: adjustments };
}
