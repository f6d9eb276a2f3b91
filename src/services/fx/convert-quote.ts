import { BadRequestError } from "../../domain/errors";
import { publicationFor } from "../../domain/fx/publication";
import { convertDecimal, pairRate, subunitRate } from "../../domain/fx/rates";
import { addDays } from "../../domain/instants";
import { unitOf } from "../../domain/provider-symbols";
import type { Context } from "../../platform/context";
import { findListing } from "../shared/resolve-listing";
import { noRates, ratedCurrency, readRateBook } from "./read-book";

/** The prices of a quote (GET /quote's answer), decimal strings. */
export interface PricedQuote {
  ticker: string;
  timestamp: string;
  price: string;
  open: string | null;
  high: string | null;
  low: string | null;
  close: string;
  change: string;
  previous_close: string | null;
}

/** What a converted quote says of its conversion. */
export interface QuoteConversion {
  from: string;
  rate: string;
  published: string;
  source: string;
  carried_forward: boolean;
  note?: string;
}

/**
 * A quote in another currency, at the newest publication out at the quote's time (a quote before
 * 16:00 Frankfurt time takes the day before's). Its currency is the provider's (pence are pounds
 * / 100), or for a streamed tick (which names none) its catalogue listing's. Every price becomes
 * price × rate rounded half to even to 6 decimals; the change too (so it stays price minus previous
 * close up to that rounding); change_pct and volume stay.
 */
export async function convertQuote<Q extends PricedQuote>(
  ctx: Context,
  quote: Q,
  quoted: string | null,
  toCode: string,
): Promise<Q & { currency: string; fx: QuoteConversion }> {
  const to = ratedCurrency(toCode, "convert");
  const own = quoted ?? (await findListing({ ctx, input: { ticker: quote.ticker } }))?.currency ?? null;
  if (!own) throw new BadRequestError(`the currency of ${quote.ticker}'s quote is not known: it cannot be converted`);
  const { currency: fromCode, scale } = unitOf(own);
  const from = ratedCurrency(fromCode, `the quote's currency`);
  const at = new Date(quote.timestamp);
  const day = at.toISOString().slice(0, 10);
  const wanted = publicationFor(day, at).day;
  const { book, latest, stored } = await readRateBook(ctx, [from, to], addDays(wanted, -7), wanted);
  const r = pairRate(book, { base: from, quote: to }, day, { closeAt: at, latestPublication: latest });
  if (!r) return noRates(`${from}/${to}`, stored);
  // Pence to pounds first: the rate is the pound's.
  const rate = subunitRate(r.rate, scale);
  const c = (x: string | null) => (x === null ? null : convertDecimal(x, rate));
  return {
    ...quote,
    price: convertDecimal(quote.price, rate),
    open: c(quote.open),
    high: c(quote.high),
    low: c(quote.low),
    close: convertDecimal(quote.close, rate),
    change: convertDecimal(quote.change, rate),
    previous_close: c(quote.previous_close),
    currency: to,
    fx: {
      from: own,
      rate,
      published: r.published,
      source: r.source,
      carried_forward: r.carried_forward,
      ...(r.note ? { note: r.note } : {}),
    },
  };
}
