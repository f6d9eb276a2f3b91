import { activeListingsByIdQuery, type ListingRow } from "../../db/repositories/catalogue";
import { earningsRefreshState, saveEarningsRefresh } from "../../db/repositories/earnings-calendar";
import { earlierHighlights } from "../../db/repositories/fundamentals";
import { storedScreenFigures } from "../../db/repositories/screen-figures";
import { recordVerdicts } from "../../db/repositories/validation-results";
import { calendarRows } from "../../domain/earnings-calendar";
import { currenciesOf, earningsRows, highlightFigures } from "../../domain/fundamentals/delayed-figures";
import { checkEarnings } from "../../domain/fundamentals/validate-records";
import { driftVerdict } from "../../domain/fundamentals/validation";
import { DAY_MS } from "../../domain/instants";
import { DELAYED } from "../../domain/provider-names";
import { FIGURE_FIELDS, figuresForListing, screenFiguresOf } from "../../domain/screen-figures";
import type { Context } from "../../platform/context";
import type { QuoteSummaryModule } from "../../providers/delayed/fundamentals";
import { ProviderError } from "../../providers/errors";
import { verifiedDelayedSymbol } from "../eod/verify-symbol";
import { validated } from "../fundamentals/enrich";

/** How often an instrument's reports are asked about: dates and estimates move within weeks. */
export const EARNINGS_REFRESH_MS = 7 * DAY_MS;

/**
 * The modules that hold an instrument's reports (coming ones, past quarters, which quarter is next)
 * and, in the same request, the figures a screen compares (market capitalisation, P/E, yield).
 */
const MODULES: QuoteSummaryModule[] = ["calendarEvents", "earningsHistory", "earningsTrend", "price", "summaryDetail"];

export type EarningsRefresh =
  | { status: "refreshed"; reports: number }
  | { status: "not_due" | "no_earnings" }
  | { status: "failed"; reason: string };

/**
 * The weekly earnings refresh of a listing's instrument (run by the daily catalogue refresh): when
 * a week has passed since it was last asked (a fund reports no earnings), the delayed provider's
 * calendar, earnings history and screen figures are fetched with the listing's verified symbol in
 * one request, its history rows and figures pass the validation layer (the figures against the
 * instrument's stored ones), and all are stored with the time asked, in one transaction. A
 * provider failure is a result (the listing's refresh goes on); drift is recorded as verdicts.
 */
export async function refreshEarningsIfDue(ctx: Context, listing: ListingRow): Promise<EarningsRefresh> {
  const db = ctx.db;
  const now = ctx.clock.now();
  const today = ctx.clock.today();
  const state = await earningsRefreshState(db, listing.assetId);
  if (state.quoteType === "ETF") return { status: "no_earnings" };
  if (state.checkedAt && now.getTime() - state.checkedAt.getTime() < EARNINGS_REFRESH_MS) return { status: "not_due" };
  try {
    // The listing as stored now: the ingestion before this may just have verified its symbol.
    const [current] = await activeListingsByIdQuery(db, [listing.id]);
    const verdict = await verifiedDelayedSymbol({
      ctx,
      input: { listing: current ?? listing, today },
    });
    if (verdict.symbol === null) return { status: "failed", reason: verdict.reason };
    const read = await ctx.providers.delayedFundamentals.summary(verdict.symbol, MODULES);
    const history = checkEarnings(DELAYED, earningsRows(read.value));
    const calendar = calendarRows(read.value);
    const listingCurrency = current?.currency ?? listing.currency;
    const quoted = currenciesOf(read.value).quote ?? listingCurrency;
    // Against the instrument's stored figures: its fundamentals snapshots and the last weekly ones.
    const figures = validated(
      highlightFigures(read.value).filter((f) => f.field in FIGURE_FIELDS),
      [
        ...(quoted ? await earlierHighlights(db, listing.assetId, quoted, today) : []),
        ...(await storedScreenFigures(db, listing.assetId)),
      ],
    );
    const screen = figuresForListing(quoted, listingCurrency, screenFiguresOf(figures.values));
    await saveEarningsRefresh(db, {
      assetId: listing.assetId,
      history: history.value,
      calendar,
      figures: screen ? { ...screen, asOf: today } : null,
      source: DELAYED,
      at: now,
    });
    const verdicts = [...history.verdicts, ...figures.verdicts, ...read.drifts.map(driftVerdict)];
    if (verdicts.length) await recordVerdicts(db, { ticker: listing.ticker, day: today, at: now, verdicts });
    return { status: "refreshed", reports: calendar.length + history.value.length };
  } catch (err) {
    if (err instanceof ProviderError) return { status: "failed", reason: err.detail };
    throw err;
  }
}
