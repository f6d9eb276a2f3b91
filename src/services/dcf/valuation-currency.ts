import type { Subject } from "../../domain/dcf/valuation";
import { figureCurrencies, tradingFiguresTimes } from "../../domain/fundamentals/figure-currency";
import { isRatedCurrency } from "../../domain/fx/currencies";
import type { PairRate } from "../../domain/fx/rates";
import { catalogueVenue } from "../../domain/market-hours";
import { ECB } from "../../domain/provider-names";
import { closeOf } from "../../domain/venues";
import type { Context } from "../../platform/context";
import { dayRates } from "../fx/convert";
import type { ValuationInputs } from "./load-inputs";

/** The subject a valuation values, in its statements' currency, and how its price got there. */
export interface ValuedSubject {
  subject: Subject;
  /** The listing's price into the statements' currency; null when they are one (or no rate was found). */
  conversion: (PairRate & { from: string; to: string }) | null;
  warnings: string[];
}

/**
 * A company reporting in another currency than its listing's is valued in the statements'
 * currency (its cash flows are theirs, discounted at their currency's rate): the listing's price
 * and the highlights' trading-currency figures (market capitalisation, trailing EPS, dividend,
 * target) are converted at the rate of the price's day (the ECB publication its venue's close
 * takes). Without a rate the figures stay as they are and the domain refuses what would compare
 * unlike units (valuation.ts), saying why. A pence line's price figures come in pounds either way.
 */
export async function inValuationCurrency(ctx: Context, inputs: ValuationInputs): Promise<ValuedSubject> {
  const { figures, price, currency, reportingCurrency, priceDate, snapshot } = inputs;
  const c = figureCurrencies(currency, { quote: snapshot.currency, financial: reportingCurrency }, null);
  const inPounds =
    c.quoted === c.trading ? figures : { ...figures, highlights: tradingFiguresTimes(figures.highlights, c, "1") };
  const unconverted: ValuedSubject = {
    subject: { figures: inPounds, price, currency, reportingCurrency },
    conversion: null,
    warnings: [],
  };
  if (!reportingCurrency || reportingCurrency.toUpperCase() === currency.toUpperCase()) return unconverted;
  const from = currency.toUpperCase();
  const to = reportingCurrency.toUpperCase();
  if (!isRatedCurrency(from) || !isRatedCurrency(to))
    return { ...unconverted, warnings: [`no ${from}/${to} reference rate exists: the price is not converted`] };
  const day = priceDate ?? ctx.clock.today();
  const venue = catalogueVenue(inputs.instrument.listing.exchange);
  // Older years being fetched through the queue are a 503 to retry (dayRates throws it), not an answer.
  const rates = await dayRates(ctx, [from], to, day, venue ? closeOf(venue, day) : undefined);
  const rate = rates.rateOf(from);
  if (!rate) {
    const why = rates.notes.join("; ");
    return {
      ...unconverted,
      warnings: [`no ${from}/${to} rate for ${day}${why ? ` (${why})` : ""}: the price is not converted`],
    };
  }
  return {
    subject: {
      figures: { ...figures, highlights: tradingFiguresTimes(figures.highlights, c, rate.rate) },
      price: price ? price.times(rate.rate) : null,
      currency: to,
      reportingCurrency: to,
    },
    conversion: { ...rate, from, to },
    warnings: [
      `the statements are in ${to} and the listing trades in ${from}: valued in ${to}, the price and the market figures converted at ${rate.rate} (the ${rate.published} publication)`,
    ],
  };
}

/**
 * Whether a valuation answer waits for a rate: its price needed converting and found none, or
 * only a fallback provider's stand-in (the ECB's may replace it). Such an answer is not cached.
 */
export function awaitsRate(
  listingCurrency: string,
  statementsCurrency: string | null,
  conversion: { source: string } | null,
): boolean {
  if (conversion) return conversion.source !== ECB;
  const from = listingCurrency.toUpperCase();
  const to = statementsCurrency?.toUpperCase() ?? from;
  return from !== to && isRatedCurrency(from) && isRatedCurrency(to);
}
