import Decimal from "decimal.js";
import { addDays, earlierDay } from "../instants";
import { EUR } from "./currencies";
import { publicationFor, publicationInstant } from "./publication";

/**
 * Rates between any two currencies on any day, from the stored euro rates (units of a currency
 * for one euro, each a publication of one day). Pure. The rules, stated once:
 * - a day takes the publication of its own day, else (a weekend, a TARGET holiday, a venue that
 *   closed before the day's publication, a publication not out yet) the last one before it, and
 *   says which and why;
 * - a pair of two other currencies is crossed through the euro (EUR/quote ÷ EUR/base);
 * - a rate with the euro as base is served as published; an inverse or a cross rate is rounded
 *   half to even to 10 significant digits; a currency into itself is 1;
 * - a converted price is the price times the served rate, rounded half to even to 6 decimals.
 */

/** One stored publication: `rate` units of `currency` for one euro on `day`, read from `source`. */
export interface EuroRate {
  day: string;
  currency: string;
  rate: string;
  source: string;
}

/** A pair's rate for one day, as served. */
export interface PairRate {
  /** The day asked for. */
  date: string;
  /** Units of the quote currency for one unit of the base, a decimal string. */
  rate: string;
  /** The day of the publication used (the oldest of the two legs' when crossed). */
  published: string;
  source: string;
  carried_forward: boolean;
  /** Why another day's publication was used. */
  note?: string;
}

export const CROSS_SIGNIFICANT_DIGITS = 10;
/**
 * The oldest a carried publication may be: the longest stretch without one is four days (Good
 * Friday to Easter Monday), so a rate older than this is a currency no longer published (or a gap
 * in what is stored), and no rate is given.
 */
export const MOST_CARRIED_DAYS = 10;
export const CONVERTED_DECIMALS = 6;
export const IDENTITY_SOURCE = "identity";

export const ROUNDING_RULE =
  "A rate with the euro as base is the ECB's as published; an inverse or cross rate (through the euro) is rounded half to even to 10 significant digits; a converted price is the price times that rate, rounded half to even to 6 decimals.";

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });

/** Each currency's publications, oldest first: the lookup a day's rate needs. */
export class EuroRateBook {
  readonly #byCurrency = new Map<string, EuroRate[]>();

  constructor(rows: readonly EuroRate[]) {
    for (const r of rows) {
      let list = this.#byCurrency.get(r.currency);
      if (!list) {
        list = [];
        this.#byCurrency.set(r.currency, list);
      }
      list.push(r);
    }
    for (const list of this.#byCurrency.values()) list.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  }

  /** The currency's newest publication on or before `day`, or null (binary search). */
  onOrBefore(currency: string, day: string): EuroRate | null {
    const list = this.#byCurrency.get(currency);
    if (!list?.length) return null;
    let lo = 0;
    let hi = list.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((list[mid] as EuroRate).day <= day) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? null : (list[found] as EuroRate);
  }

  /** The newest day any currency has a publication of, or null. */
  latestDay(): string | null {
    let latest: string | null = null;
    for (const list of this.#byCurrency.values()) {
      const last = list.at(-1)?.day;
      if (last && (latest === null || last > latest)) latest = last;
    }
    return latest;
  }
}

const euroLeg = (currency: string, day: string): EuroRate => ({ day, currency, rate: "1", source: IDENTITY_SOURCE });

/**
 * The rate of base→quote for `date`, or null when a leg has no publication on or before its day.
 * `closeAt` is when the price being converted was set (a venue's close): a close before the day's
 * publication takes the day before's. `latestPublication`: the newest day published by now (a
 * later day's rates are not out yet, and the note says so).
 */
export function pairRate(
  book: EuroRateBook,
  pair: { base: string; quote: string },
  date: string,
  opts: { closeAt?: Date; latestPublication?: string; before?: string } = {},
): PairRate | null {
  const { base, quote } = pair;
  if (base === quote) return { date, rate: "1", published: date, source: IDENTITY_SOURCE, carried_forward: false };
  const calendar = publicationFor(date, opts.closeAt, opts.before);
  // A publication stored on the day itself is the day's, whatever the calendar says (the TARGET
  // holidays of 1999 to 2001 were other days), unless the price was set before it came out.
  const setBefore = opts.closeAt !== undefined && opts.closeAt.getTime() < publicationInstant(date).getTime();
  const ownStored = !setBefore && [base, quote].every((c) => c === EUR || book.onOrBefore(c, date)?.day === date);
  const wanted = ownStored ? { day: date, why: null } : calendar;
  const notOut = opts.latestPublication !== undefined && wanted.day > opts.latestPublication;
  const leg = (c: string) => {
    if (c === EUR) return euroLeg(c, wanted.day);
    const r = book.onOrBefore(c, wanted.day);
    return r && addDays(r.day, MOST_CARRIED_DAYS) >= wanted.day ? r : null;
  };
  const b = leg(base);
  const q = leg(quote);
  if (!b || !q) return null;
  const published = earlierDay(b.day, q.day);
  const source = [b, q].find((l) => l.source !== IDENTITY_SOURCE)?.source ?? IDENTITY_SOURCE;
  const carried = published !== date;
  let note: string | undefined;
  if (carried) {
    const why = wanted.why ?? (notOut ? "the day's rates are published at 16:00 Frankfurt time" : null);
    const missing = !notOut && published !== wanted.day ? `no publication stored for ${wanted.day}` : null;
    note = [`the ${published} publication`, why, missing].filter(Boolean).join("; ");
  }
  return {
    date,
    rate: crossed(b, q),
    published,
    source,
    carried_forward: carried,
    ...(note ? { note } : {}),
  };
}

/** quote per base from two euro legs: the published rate itself when the base is the euro. */
function crossed(base: EuroRate, quote: EuroRate): string {
  if (base.currency === EUR) return quote.rate;
  return new D(quote.rate).div(base.rate).toSignificantDigits(CROSS_SIGNIFICANT_DIGITS).toFixed();
}

/** A price in another currency: price × rate, rounded half to even to 6 decimals. */
export function convertPrice(price: number, rate: string): number {
  return new D(String(price)).times(rate).toDecimalPlaces(CONVERTED_DECIMALS).toNumber();
}

/** A rate for a sub-unit (pence: a pound's rate × 0.01), exactly. */
export const subunitRate = (rate: string, scale: number): string => new D(rate).times(scale).toFixed();

/** A decimal-string price in another currency, the same rule, as a decimal string. */
export function convertDecimal(price: string, rate: string): string {
  return new D(price).times(rate).toDecimalPlaces(CONVERTED_DECIMALS).toFixed();
}

/** A fixed-decimals amount (a statement line's two) in another currency, rounded half to even to as many. */
export function convertFixed(amount: string, rate: string, decimals: number): string {
  return new D(amount).times(rate).toFixed(decimals);
}

/**
 * The average of a pair's rates over the days `from` to `to` that have their own publication (both
 * legs published that day), rounded half to even to 10 significant digits; null without one.
 */
export function averageRate(
  book: EuroRateBook,
  pair: { base: string; quote: string },
  from: string,
  to: string,
): { rate: string; days: number; first: string; last: string; source: string } | null {
  if (pair.base === pair.quote) return { rate: "1", days: 0, first: from, last: to, source: IDENTITY_SOURCE };
  let sum = new D(0);
  let days = 0;
  let first = "";
  let last = "";
  const sources = new Set<string>();
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const r = pairRate(book, pair, day);
    if (!r || r.carried_forward) continue;
    sum = sum.plus(r.rate);
    days++;
    if (!first) first = day;
    last = day;
    sources.add(r.source);
  }
  if (!days) return null;
  // Days of a fallback provider among the ECB's: every source is named.
  const source = [...sources].sort().join("+");
  return { rate: sum.div(days).toSignificantDigits(CROSS_SIGNIFICANT_DIGITS).toFixed(), days, first, last, source };
}
