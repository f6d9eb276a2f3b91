import { earlierHighlights, saveEnrichment } from "../../db/repositories/fundamentals";
import { recordVerdicts } from "../../db/repositories/validation-results";
import { calendarRows } from "../../domain/earnings-calendar";
import {
  analystFigures,
  currenciesOf,
  earningsRows,
  estimateFigures,
  type FundDetails,
  fundDetailsOf,
  highlightFigures,
  highlightTexts,
  profileOf,
  type RawFigure,
  trendRows,
} from "../../domain/fundamentals/delayed-figures";
import { checkEarnings, checkFund, checkStatements, checkTrends } from "../../domain/fundamentals/validate-records";
import { driftVerdict, historyOf, type Verdict, validate } from "../../domain/fundamentals/validation";
import { DELAYED } from "../../domain/provider-names";
import { figuresForListing, screenFiguresOf } from "../../domain/screen-figures";
import type { Context } from "../../platform/context";
import type { Instrument } from "../shared/resolve-instrument";
import type { DelayedFundamentals } from "./delayed-fetch";
import { fetchDelayedFundamentals } from "./delayed-fetch";

/** Validated figures as an object of the valid values; every verdict is returned for storage. */
export function validated(
  figures: readonly RawFigure[],
  history: readonly Record<string, number | string | null>[],
): { values: Record<string, number>; verdicts: Verdict[] } {
  const verdicts = figures.map((f) =>
    validate(
      { provider: DELAYED, field: f.field, value: f.value, unit: f.unit },
      { history: historyOf(history, f.field) },
    ),
  );
  const values: Record<string, number> = {};
  for (const v of verdicts) if (v.status === "valid" && v.value !== null) values[v.field] = v.value;
  return { values, verdicts };
}

/**
 * The deep enrichment of one instrument with its verified symbol: fetches everything the delayed
 * provider publishes, passes every figure through the validation layer (highlights against the
 * instrument's stored history; statement lines, earnings rows and fund weights against their
 * bounds), stores the valid ones with today's fetch date and every verdict. Provider
 * failures propagate and store nothing.
 */
export async function enrichInstrument(
  ctx: Context,
  instrument: Instrument,
  symbol: string,
): Promise<{ fetched: DelayedFundamentals; verdicts: Verdict[]; fund: FundDetails | null }> {
  const kind = instrument.asset.quoteType === "ETF" ? "fund" : "company";
  const fetched = await fetchDelayedFundamentals(ctx, symbol, kind);
  const db = ctx.db;
  const today = ctx.clock.today();
  const now = ctx.clock.now();
  const history = await earlierHighlights(db, instrument.asset.id, instrument.listing.currency, today);
  const highlights = validated([...highlightFigures(fetched.summary), ...estimateFigures(fetched.summary)], history);
  const analyst = analystFigures(fetched.summary);
  const ratings = validated(analyst.figures, []);
  const currencies = currenciesOf(fetched.summary);
  // The rows pass the validation layer too: the valuation and every document read only what passed.
  const statements = checkStatements(DELAYED, fetched.statements);
  const earnings = checkEarnings(DELAYED, earningsRows(fetched.summary));
  const trends = checkTrends(DELAYED, trendRows(fetched.summary));
  const fund = checkFund(DELAYED, kind === "fund" ? fundDetailsOf(fetched.summary) : null);
  await saveEnrichment(db, {
    assetId: instrument.asset.id,
    fetchDate: today,
    fetchedAt: now,
    symbol,
    source: DELAYED,
    // The symbol was verified to be quoted in the listing's currency: an answer without one is in it.
    currency: currencies.quote ?? instrument.listing.currency,
    financialCurrency: currencies.financial,
    highlights: { ...highlightTexts(fetched.summary), ...highlights.values },
    analystRatings: { ...analyst.texts, ...ratings.values },
    profile: profileOf(fetched.summary),
    statements: statements.value,
    earnings: earnings.value,
    calendar: kind === "fund" ? [] : calendarRows(fetched.summary),
    trends: trends.value,
    fund: fund.value,
    screen: figuresForListing(currencies.quote, instrument.listing.currency, screenFiguresOf(highlights.values)),
  });
  const verdicts = [...highlights.verdicts, ...ratings.verdicts];
  // Drift is reported where an operator looks (the stored verdicts), not in the user's answer.
  await recordVerdicts(db, {
    ticker: instrument.listing.ticker,
    day: today,
    at: now,
    verdicts: [
      ...verdicts,
      ...statements.verdicts,
      ...earnings.verdicts,
      ...trends.verdicts,
      ...fund.verdicts,
      ...fetched.drifts.map(driftVerdict),
    ],
  });
  return { fetched, verdicts, fund: fund.value };
}
