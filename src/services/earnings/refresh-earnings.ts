import { activeListingsByIdQuery, type ListingRow } from "../../db/repositories/catalogue";
import { earningsRefreshState, saveEarningsRefresh } from "../../db/repositories/earnings-calendar";
import { recordVerdicts } from "../../db/repositories/validation-results";
import type { Deps } from "../../deps";
import { calendarRows } from "../../domain/earnings-calendar";
import { earningsRows } from "../../domain/fundamentals/delayed-figures";
import { checkEarnings } from "../../domain/fundamentals/validate-records";
import { driftVerdict } from "../../domain/fundamentals/validation";
import { DELAYED } from "../../domain/provider-names";
import type { QuoteSummaryModule } from "../../providers/delayed/fundamentals";
import { ProviderError } from "../../providers/errors";
import { verifiedDelayedSymbol } from "../eod/verify-symbol";

/** How often an instrument's reports are asked about: dates and estimates move within weeks. */
export const EARNINGS_REFRESH_MS = 7 * 86_400_000;

/** The modules that hold an instrument's reports: coming ones, past quarters, and which quarter is next. */
const MODULES: QuoteSummaryModule[] = ["calendarEvents", "earningsHistory", "earningsTrend"];

export type EarningsRefresh =
  | { status: "refreshed"; reports: number }
  | { status: "not_due" | "no_earnings" }
  | { status: "failed"; reason: string };

/**
 * The weekly earnings refresh of a listing's instrument (run by the daily catalogue refresh): when
 * a week has passed since it was last asked (a fund reports no earnings), the delayed provider's
 * calendar and earnings history are fetched with the listing's verified symbol, its history rows
 * pass the validation layer, and both are stored with the time asked, in one transaction. A
 * provider failure is a result (the listing's refresh goes on); drift is recorded as verdicts.
 */
export async function refreshEarningsIfDue(ctx: Deps, listing: ListingRow): Promise<EarningsRefresh> {
  const db = ctx.db.db;
  const now = ctx.clock.now();
  const state = await earningsRefreshState(db, listing.assetId);
  if (state.quoteType === "ETF") return { status: "no_earnings" };
  if (state.checkedAt && now.getTime() - state.checkedAt.getTime() < EARNINGS_REFRESH_MS) return { status: "not_due" };
  try {
    // The listing as stored now: the ingestion before this may just have verified its symbol.
    const [current] = await activeListingsByIdQuery(db, [listing.id]);
    const verdict = await verifiedDelayedSymbol({
      ctx,
      input: { listing: current ?? listing, today: ctx.clock.today() },
    });
    if (verdict.symbol === null) return { status: "failed", reason: verdict.reason };
    const read = await ctx.providers.delayedFundamentals.summary(verdict.symbol, MODULES);
    const history = checkEarnings(DELAYED, earningsRows(read.value));
    const calendar = calendarRows(read.value);
    await saveEarningsRefresh(db, {
      assetId: listing.assetId,
      history: history.value,
      calendar,
      source: DELAYED,
      at: now,
    });
    const verdicts = [...history.verdicts, ...read.drifts.map(driftVerdict)];
    if (verdicts.length)
      await recordVerdicts(db, { ticker: listing.ticker, day: ctx.clock.today(), at: now, verdicts });
    return { status: "refreshed", reports: calendar.length + history.value.length };
  } catch (err) {
    if (err instanceof ProviderError) return { status: "failed", reason: err.detail };
    throw err;
  }
}
