import type { Bar } from "../../domain/bars";
import { ServiceError } from "../../domain/errors";
import { FIRST_PUBLICATION } from "../../domain/fx/coverage";
import { EUR, isRatedCurrency } from "../../domain/fx/currencies";
import { publicationFor } from "../../domain/fx/publication";
import { convertPrice, type PairRate, pairRate, ROUNDING_RULE } from "../../domain/fx/rates";
import { laterDay } from "../../domain/instants";
import { catalogueVenue } from "../../domain/market-hours";
import { closeOf } from "../../domain/venues";
import type { Context } from "../../platform/context";
import { ratedCurrency, readRateBook } from "./read-book";

/** What an answer says of its conversion. */
export interface ConversionNote {
  from: string;
  to: string;
  source: string;
  cross: string | null;
  rounding: string;
  notes: string[];
}

/** Bars in another currency, each with the rate it was converted at. */
export interface ConvertedBars {
  bars: Bar[];
  /** The rate of each converted bar, by its date. */
  rates: Map<string, PairRate>;
  conversion: ConversionNote;
  /** Some bar took an earlier day's publication although its own may still come (not stored yet). */
  provisional: boolean;
}

/** The currency a `convert=` names, checked (a 400 for one without rates). */
export const convertTarget = (code: string): string => ratedCurrency(code, "convert");

/** A listing's rates into `to` for some of its days, and what the answer says of them. */
export interface ListingDayRates {
  /** The rate of each day that has one (none before the first publication). */
  rates: Map<string, PairRate>;
  conversion: ConversionNote;
  /** Some day took an earlier publication although its own may still come (not stored yet). */
  provisional: boolean;
  /** Days without a rate; the caller leaves their prices out. */
  missing: number;
}

/**
 * The rate of each of a listing's days into `to`: the publication of the day when its venue
 * closed after it (16:00 Frankfurt time), else the last one before (Tokyo, Hong Kong and Sydney
 * close before it; weekends and TARGET holidays carry the last one). The rates are made stored
 * first: older years being fetched through the queue are a 503 to retry, and nothing at all for a
 * failing provider too.
 */
export async function listingDayRates(
  ctx: Context,
  listing: { currency: string; exchange: string | null },
  days: readonly string[],
  toCode: string,
): Promise<ListingDayRates> {
  const to = convertTarget(toCode);
  const from = ratedCurrency(listing.currency.toUpperCase(), "the listing's currency");
  const conversion: ConversionNote = {
    from,
    to,
    source: "identity",
    cross: from !== EUR && to !== EUR && from !== to ? `through the euro: EUR/${to} ÷ EUR/${from}` : null,
    rounding: ROUNDING_RULE,
    notes: [],
  };
  const rates = new Map<string, PairRate>();
  const sorted = [...new Set(days)].sort();
  const first = sorted[0];
  const last = sorted.at(-1);
  if (!first || !last) return { rates, conversion, provisional: false, missing: 0 };
  const { book, latest, stored } = await readRateBook(ctx, [from, to], laterDay(first, FIRST_PUBLICATION), last);
  if (stored.queued.length)
    throw new ServiceError(
      "UPSTREAM_UNAVAILABLE",
      `The ${from}/${to} rates of ${stored.queued.map((w) => w.year).join(", ")} are being fetched from the ECB; retry in a minute`,
    );
  const venue = catalogueVenue(listing.exchange);
  let provisional = false;
  let missing = 0;
  for (const day of sorted) {
    const closeAt = venue ? closeOf(venue, day) : undefined;
    const r = pairRate(book, { base: from, quote: to }, day, { closeAt, latestPublication: latest });
    if (!r) {
      missing++;
      continue;
    }
    // An earlier publication than the one the day takes: its own is not out yet, or not stored.
    if (r.published < publicationFor(day, closeAt).day) provisional = true;
    rates.set(day, r);
    if (r.source !== "identity") conversion.source = r.source;
  }
  if (missing && !rates.size && stored.failure)
    throw new ServiceError("UPSTREAM_UNAVAILABLE", `No ${from}/${to} rate could be fetched: ${stored.failure}`, {
      reason: stored.failure,
    });
  if (missing) conversion.notes.push(`${missing} day(s) without a ${from}/${to} rate on or before them were left out`);
  if (stored.failure) conversion.notes.push(`the newest rates could not be fetched: ${stored.failure}`);
  return { rates, conversion, provisional, missing };
}

/**
 * Daily bars of a listing converted into `to`, each at its own day's rate (listingDayRates).
 * Prices (open, high, low, close, adjusted close) become price × rate, rounded half to even to 6
 * decimals; volumes stay. Bars of days without a rate are left out (said in the notes).
 */
export async function convertDailyBars(
  ctx: Context,
  listing: { currency: string; exchange: string | null },
  bars: readonly Bar[],
  toCode: string,
): Promise<ConvertedBars> {
  const { rates, conversion, provisional } = await listingDayRates(
    ctx,
    listing,
    bars.map((b) => b.date),
    toCode,
  );
  const out: Bar[] = [];
  for (const b of bars) {
    const r = rates.get(b.date);
    if (!r) continue;
    out.push({
      date: b.date,
      open: convertPrice(b.open, r.rate),
      high: convertPrice(b.high, r.rate),
      low: convertPrice(b.low, r.rate),
      close: convertPrice(b.close, r.rate),
      adjClose: convertPrice(b.adjClose, r.rate),
      volume: b.volume,
    });
  }
  return { bars: out, rates, conversion, provisional };
}

/** Every currency's rate into one currency on one day (a venue's day: its close decides the publication). */
export interface DayRates {
  to: string;
  rateOf(currency: string): PairRate | null;
  notes: string[];
}

/**
 * The rates of `currencies` into `to` for one day at `closeAt`, read (and made stored) at once: a
 * venue's whole day converted with one read. A currency without rates has none (its rows say so).
 */
export async function dayRates(
  ctx: Context,
  currencies: readonly string[],
  toCode: string,
  day: string,
  closeAt?: Date,
): Promise<DayRates> {
  const to = convertTarget(toCode);
  const rated = [...new Set(currencies.map((c) => c.toUpperCase()))].filter(isRatedCurrency);
  const { book, latest, stored } = await readRateBook(ctx, [...rated, to], day, day);
  if (stored.queued.length)
    throw new ServiceError(
      "UPSTREAM_UNAVAILABLE",
      `The rates of ${day} are being fetched from the ECB; retry in a minute`,
    );
  return {
    to,
    rateOf: (c) =>
      isRatedCurrency(c.toUpperCase())
        ? pairRate(book, { base: c.toUpperCase(), quote: to }, day, { closeAt, latestPublication: latest })
        : null,
    notes: stored.failure ? [`the newest rates could not be fetched: ${stored.failure}`] : [],
  };
}
