import { BadRequestError, ServiceError, UnprocessableError } from "../../domain/errors";
import { publicationFor } from "../../domain/fx/publication";
import { convertDecimal, pairRate, subunitRate } from "../../domain/fx/rates";
import { addDays, earlierDay, laterDay } from "../../domain/instants";
import { liveScale, unitOf } from "../../domain/provider-symbols";
import type { Context } from "../../platform/context";
import { findListing } from "../shared/resolve-listing";
import { convertTarget } from "./convert";
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

/** A quote to convert: its prices, and the currency the provider gave them in (null: a streamed tick). */
export interface QuoteToConvert<Q extends PricedQuote> {
  quote: Q;
  quoted: string | null;
}

export type ConvertedQuote<Q> = Q & { currency: string; fx: QuoteConversion };

const QUOTE_BEFORE = "the quote is from before the day's publication (16:00 Frankfurt time)";

/**
 * The unit a quote's prices are in: the provider's currency (pence are hundredths of pounds); for a
 * streamed tick, which names none, its listing's, when the stream cannot quote a sub-unit of it
 * (a London tick may be in pence or pounds: not converted, a 422).
 */
async function unitOfQuote(
  ctx: Context,
  q: QuoteToConvert<PricedQuote>,
): Promise<{ own: string; from: string; scale: number }> {
  let own = q.quoted;
  if (own === null) {
    const listing = await findListing({ ctx, input: { ticker: q.quote.ticker } });
    if (!listing)
      throw new BadRequestError(`the currency of ${q.quote.ticker}'s quote is not known: it cannot be converted`);
    if (liveScale(null, listing.currency) === null)
      throw new UnprocessableError(
        `${q.quote.ticker}'s streamed tick names no unit (${listing.currency} or its hundredths): ask without convert, or once the stream is stopped`,
      );
    own = listing.currency;
  }
  const { currency, scale } = unitOf(own);
  return { own, from: ratedCurrency(currency, "the quote's currency"), scale };
}

/**
 * Quotes in another currency, each at the newest publication out at its time (a quote before 16:00
 * Frankfurt time takes the day before's), with one read of the rates for all of them. Every price
 * becomes price × rate rounded half to even to 6 decimals; the change too (so it stays price minus
 * previous close up to that rounding); change_pct and volume stay. A quote that cannot be converted
 * (its currency without rates, its unit unknown, no rate) is an error of its own.
 */
export async function convertQuotes<Q extends PricedQuote>(
  ctx: Context,
  items: readonly QuoteToConvert<Q>[],
  toCode: string,
): Promise<(ConvertedQuote<Q> | ServiceError)[]> {
  const to = convertTarget(toCode);
  const units = await Promise.all(
    items.map((q) =>
      unitOfQuote(ctx, q).catch((err: unknown) => {
        if (err instanceof ServiceError) return err;
        throw err;
      }),
    ),
  );
  const wanted = items.map((q) => {
    const at = new Date(q.quote.timestamp);
    return {
      at,
      day: at.toISOString().slice(0, 10),
      publication: publicationFor(at.toISOString().slice(0, 10), at).day,
    };
  });
  const ok = units.flatMap((u) => (u instanceof ServiceError ? [] : [u.from]));
  if (!ok.length) return units as ServiceError[];
  const days = wanted.map((w) => w.publication);
  const first = days.reduce(earlierDay);
  const last = days.reduce(laterDay);
  const { book, latest, stored } = await readRateBook(ctx, [...ok, to], addDays(first, -7), last);
  return items.map((q, i) => {
    const u = units[i];
    const w = wanted[i];
    if (!u || !w) return new BadRequestError("no such quote");
    if (u instanceof ServiceError) return u;
    const r = pairRate(book, { base: u.from, quote: to }, w.day, {
      closeAt: w.at,
      latestPublication: latest,
      before: QUOTE_BEFORE,
    });
    if (!r) {
      try {
        return noRates(`${u.from}/${to}`, stored);
      } catch (err) {
        return err as ServiceError;
      }
    }
    // Pence first to pounds: the rate is the pound's.
    const rate = subunitRate(r.rate, u.scale);
    const c = (x: string | null) => (x === null ? null : convertDecimal(x, rate));
    const p = q.quote;
    return {
      ...p,
      price: convertDecimal(p.price, rate),
      open: c(p.open),
      high: c(p.high),
      low: c(p.low),
      close: convertDecimal(p.close, rate),
      change: convertDecimal(p.change, rate),
      previous_close: c(p.previous_close),
      currency: to,
      fx: {
        from: u.own,
        rate,
        published: r.published,
        source: r.source,
        carried_forward: r.carried_forward,
        ...(r.note ? { note: r.note } : {}),
      },
    };
  });
}

/** One quote in another currency (convertQuotes); what prevents it is the request's error. */
export async function convertQuote<Q extends PricedQuote>(
  ctx: Context,
  quote: Q,
  quoted: string | null,
  toCode: string,
): Promise<ConvertedQuote<Q>> {
  const [one] = await convertQuotes(ctx, [{ quote, quoted }], toCode);
  if (!one || one instanceof ServiceError) throw one ?? new BadRequestError("no quote to convert");
  return one;
}
