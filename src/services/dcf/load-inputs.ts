import { latestSnapshot, type SnapshotRow, storedStatements, storedTrends } from "../../db/repositories/fundamentals";
import { lastClose } from "../../db/repositories/prices-latest";
import type { AnnualRow, StoredFigures } from "../../domain/dcf/inputs";
import { Dec, dec } from "../../domain/dcf/numbers";
import { NoDataError } from "../../domain/errors";
import { currencyScale } from "../../domain/provider-symbols";
import type { Context } from "../../platform/context";
import { type Instrument, resolveInstrument } from "../shared/resolve-instrument";

/** Everything a valuation reads, from the database only (spec Valuation rule 2). */
export interface ValuationInputs {
  instrument: Instrument;
  snapshot: SnapshotRow;
  figures: StoredFigures;
  /** The quote currency (the listing's) and the statements' currency. */
  currency: string;
  reportingCurrency: string | null;
  price: Dec | null;
  priceDate: string | null;
  warnings: string[];
}

/**
 * Loads the stored enrichment of the ticker's listing and its last daily close. A ticker never
 * enriched is a 404 naming what is missing and how to get it (rule 3).
 */
export async function loadValuationInputs(ctx: Context, ticker: string): Promise<ValuationInputs> {
  const instrument = await resolveInstrument({ ctx, input: { ticker } });
  const { listing, asset } = instrument;
  const db = ctx.db;
  const [snapshot, statements, trends, close] = await Promise.all([
    latestSnapshot(db, asset.id, listing.currency, ctx.clock.today()),
    storedStatements(db, asset.id),
    storedTrends(db, asset.id),
    lastClose(db, listing.id, ctx.clock.today()),
  ]);
  if (!snapshot)
    throw new NoDataError(
      `No fundamentals stored for ${listing.ticker}`,
      `missing: highlights, annual statements and earnings trend of the deep enrichment; call GET /fundamental/deep?ticker=${encodeURIComponent(listing.ticker)} first`,
    );
  if (!statements.some((s) => s.periodType === "annual"))
    throw new NoDataError(
      `No annual statements stored for ${listing.ticker}`,
      `missing: annual statements (the deep enrichment stored highlights only: a fund, or the provider had none); call GET /fundamental/deep?ticker=${encodeURIComponent(listing.ticker)} again`,
    );
  const annual = (kind: "income" | "balance" | "cashflow"): AnnualRow[] =>
    statements
      .filter((s) => s.statement === kind && s.periodType === "annual")
      .slice(0, 5)
      .map((s) => ({ periodEnd: s.periodEnd, items: s.items }));
  const warnings: string[] = [];
  let price = close ? new Dec(close.close) : null;
  let priceDate = close?.date ?? null;
  if (!price) {
    // The provider's price is in its quoted unit: a pence line's in pence, the stored closes in pounds.
    const quoted = dec(snapshot.highlights.price);
    price = quoted?.times(currencyScale(snapshot.currency, listing.currency) ?? 1) ?? null;
    priceDate = price ? snapshot.fetchDate : null;
    warnings.push(
      price
        ? `no daily close stored: the delayed provider's price of ${snapshot.fetchDate} used`
        : "no price stored: no upside can be given",
    );
  }
  const reportingCurrency = snapshot.financialCurrency ?? statements.find((s) => s.currency)?.currency ?? null;
  return {
    instrument,
    snapshot,
    figures: {
      highlights: snapshot.highlights,
      income: annual("income"),
      balance: annual("balance"),
      cashflow: annual("cashflow"),
      analystEpsGrowth: dec(trends.find((t) => t.period === "+1y")?.growth ?? null),
    },
    currency: listing.currency,
    reportingCurrency,
    price,
    priceDate,
    warnings,
  };
}
