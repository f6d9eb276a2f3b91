import { adjustmentSummary } from "../../db/repositories/corporate-actions";
import { verdictCounts } from "../../db/repositories/monitoring";
import { findingsSummary } from "../../db/repositories/price-findings";
import { FULL_PRECISION_TOLERANCE } from "../../domain/corporate-actions";
import { DAY_MS } from "../../domain/instants";
import { validationStatistics } from "../../domain/monitoring/validation-stats";
import { REPAIRABLE } from "../../domain/price-repair";
import type { Context } from "../../platform/context";

const WEEK_MS = 7 * DAY_MS;
/** Listings named in the answer whose adjusted closes disagree with their events. */
const DISAGREEING_SHOWN = 10;

/** Where the stored adjusted closes disagree with the stored dividends and splits (the checks of the ingestions). */
export async function priceAdjustments(ctx: Context) {
  const s = await adjustmentSummary(ctx.db, DISAGREEING_SHOWN);
  return {
    tolerance: FULL_PRECISION_TOLERANCE,
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

/** What the price sanity net holds across the catalogue: findings by kind, and the listings with most. */
export async function priceSanity(ctx: Context) {
  const s = await findingsSummary(ctx.db, DISAGREEING_SHOWN);
  return {
    findings: s.byKind.reduce((n, k) => n + k.findings, 0),
    listings_with_findings: s.listings,
    by_kind: s.byKind.map((k) => ({
      kind: k.kind,
      findings: k.findings,
      listings: k.listings,
      repairable: REPAIRABLE.has(k.kind),
      last_found_at: k.lastFoundAt ? new Date(k.lastFoundAt).toISOString() : null,
    })),
    listings: s.top.map((l) => ({
      ticker: l.ticker,
      exchange: l.exchange,
      isin: l.isin,
      findings: l.findings,
      kinds: l.kinds,
      first: l.first,
    })),
  };
}

/** GET /health/stats: the validation layer's verdicts of the last 7 days, the price-adjustment checks and the price sanity net. */
export async function getValidationStats({ ctx }: { ctx: Context }) {
  const [counts, adjustments, sanity] = await Promise.all([
    verdictCounts(ctx.db, new Date(ctx.clock.now().getTime() - WEEK_MS)),
    priceAdjustments(ctx),
    priceSanity(ctx),
  ]);
  return { ...validationStatistics(counts), price_adjustments: adjustments, price_sanity: sanity };
}
