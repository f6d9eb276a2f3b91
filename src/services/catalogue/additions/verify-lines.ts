import {
  isHeldQuoteType,
  isStatedLine,
  listingCurrencyOf,
  MAX_LINES_PROBED,
  medianTradedValue,
  type NewListing,
  type OfferedLine,
  placeLine,
} from "../../../domain/catalogue-additions";
import { addDays } from "../../../domain/instants";
import { currencyScale, venueOfDelayedExchange } from "../../../domain/provider-symbols";
import type { Context } from "../../../platform/context";
import { ProviderError } from "../../../providers/errors";

/** An offered line and where the offer came from (said in the answer's `found_by`). */
export interface Offer {
  line: OfferedLine;
  source: string;
}

/** A line verified by its chart: the listing to store, and what the chart said. */
export interface VerifiedLine extends NewListing {
  delayedSymbol: string;
  name: string | null;
  quoteType: string | null;
  source: string;
}

/** A line left out, with why; `transient` when asking again soon may change it. */
export interface RefusedLine {
  symbol: string;
  reason: string;
  transient: boolean;
}

/** Days of bars a verification reads: enough sessions for a median traded value, one provider call. */
const PROBE_DAYS = 14;
const held = (h: OfferedLine) => isHeldQuoteType(h.quoteType);

/**
 * The lines providers offer for an ISIN: the delayed provider's identifier search; where it finds
 * none (it often misses UCITS funds), the directory that states ISINs names the instrument, and
 * the delayed search by that name keeps the hits that are that line (`isStatedLine`). A directory
 * that does not answer is the provider's failure, never "no provider knows it".
 */
export async function offeredLines(
  ctx: Context,
  isin: string,
): Promise<{ offers: Offer[]; statedName: string | null }> {
  const byIsin = (await ctx.providers.delayed.search(isin)).filter(held);
  if (byIsin.length > 0)
    return {
      offers: byIsin.map((line) => ({ line, source: `delayed provider search for ${isin}` })),
      statedName: null,
    };
  const directory = ctx.providers.isinDirectory;
  const suggested = await directory.suggest(isin);
  if (suggested === null)
    throw new ProviderError(directory.name, "unavailable", `its search for ${isin} did not answer`);
  const stated = suggested.find((s) => s.isin === isin);
  if (!stated) return { offers: [], statedName: null };
  const byName = (await ctx.providers.delayed.search(stated.name)).filter((h) => held(h) && isStatedLine(h, stated));
  const source = `${directory.name} states ${isin} for ${stated.name}; delayed provider search for that name`;
  return { offers: byName.map((line) => ({ line, source })), statedName: stated.name };
}

/**
 * Each offered line placed on a venue and checked as /eod checks a symbol: its chart must answer
 * in a currency the listing can be stored in, from the venue the search named. At most
 * MAX_LINES_PROBED charts; lines on venues the catalogue lacks are refused without a call.
 */
export async function verifyLines(
  ctx: Context,
  offers: readonly Offer[],
  today: string,
): Promise<{ verified: VerifiedLine[]; refused: RefusedLine[] }> {
  const verified: VerifiedLine[] = [];
  const refused: RefusedLine[] = [];
  const seen = new Set<string>();
  let probes = 0;
  for (const { line, source } of offers) {
    const symbol = line.symbol.trim().toUpperCase();
    if (seen.has(symbol)) continue;
    seen.add(symbol);
    const placed = placeLine(line);
    if ("refused" in placed) {
      refused.push({ symbol, reason: placed.refused, transient: false });
      continue;
    }
    if (probes >= MAX_LINES_PROBED) {
      refused.push({
        symbol,
        reason: `not checked: at most ${MAX_LINES_PROBED} lines are checked per instrument`,
        transient: false,
      });
      continue;
    }
    probes++;
    const { venue, ticker } = placed;
    try {
      const chart = await ctx.providers.delayed.dailyHistory(symbol, addDays(today, -PROBE_DAYS), today);
      const chartVenue = chart.exchange ? venueOfDelayedExchange(chart.exchange) : undefined;
      const currency = listingCurrencyOf(chart.currency, venue.currency);
      if (chartVenue && chartVenue.code !== venue.code) {
        refused.push({
          symbol,
          reason: `${symbol}'s chart is from ${chart.exchange}, not ${venue.name}`,
          transient: false,
        });
      } else if (!currency) {
        refused.push({
          symbol,
          reason: `${symbol}'s chart quotes in ${chart.currency ?? "no currency"}, which ${venue.name} does not trade in`,
          transient: false,
        });
      } else {
        verified.push({
          ticker,
          exchange: venue.code,
          currency,
          countries: venue.countries,
          venueCurrency: venue.currency,
          // In the listing's currency: a London line's pence counted as pounds.
          tradedValue: medianTradedValue(chart.bars) * (currencyScale(chart.currency, currency) ?? 1),
          delayedSymbol: symbol,
          name: line.name,
          quoteType: line.quoteType?.toUpperCase() ?? null,
          source: `${source}; its chart quotes in ${chart.currency}`,
        });
      }
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      const notFound = err.failure === "not_found";
      refused.push({
        symbol,
        reason: notFound
          ? `the delayed provider's chart does not know ${symbol}`
          : `${symbol}'s chart failed: ${err.message}`,
        transient: !notFound,
      });
    }
  }
  return { verified, refused };
}
