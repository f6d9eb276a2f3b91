import { euroRatesBetween } from "../../db/repositories/fx";
import { BadRequestError, NoDataError, ServiceError } from "../../domain/errors";
import { EUR, isRatedCurrency } from "../../domain/fx/currencies";
import { latestPublicationDay } from "../../domain/fx/publication";
import { EuroRateBook } from "../../domain/fx/rates";
import { addDays } from "../../domain/instants";
import type { Context } from "../../platform/context";
import { CARRY_LOOKBACK_DAYS, type StoreOutcome, storeRates } from "./store-rates";

/** A currency a route was given, checked: a 400 names the currencies that have rates. */
export function ratedCurrency(code: string, what: string): string {
  const c = code.trim().toUpperCase();
  if (!isRatedCurrency(c))
    throw new BadRequestError(
      `${what} ${JSON.stringify(code.slice(0, 12))} has no rates: the service converts between the euro and the currencies the ECB publishes a reference rate of (GET /fx/latest lists them; the Bulgarian lev's history runs to 2025)`,
    );
  return c;
}

/** The stored publications of some currencies over some days, made stored first where they can be. */
export interface RateBook {
  book: EuroRateBook;
  /** The newest day published by now. */
  latest: string;
  stored: StoreOutcome;
}

/**
 * The rate book of `currencies` for the days `from` to `to`: the missing windows fetched (the
 * newest now, older ones queued), then the publications read, with the days before `from` that a
 * carried rate may come from. The euro needs none.
 */
export async function readRateBook(
  ctx: Context,
  currencies: readonly string[],
  from: string,
  to: string,
): Promise<RateBook> {
  const latest = latestPublicationDay(ctx.clock.now());
  const others = [...new Set(currencies.filter((c) => c !== EUR))];
  if (!others.length) return { book: new EuroRateBook([]), latest, stored: { queued: [] } };
  const stored = await storeRates(ctx, others, from, to);
  const rows = await euroRatesBetween(ctx.db, others, addDays(from, -CARRY_LOOKBACK_DAYS), to);
  return { book: new EuroRateBook(rows), latest, stored };
}

/**
 * No rate for any day of the window: a 503 when the provider failed (a retry may succeed), else a
 * 404: the ECB published none on or before those days.
 */
export function noRates(pair: string, stored: StoreOutcome): never {
  if (stored.failure)
    throw new ServiceError(
      "UPSTREAM_UNAVAILABLE",
      `No ${pair} rate is stored and none could be fetched now: ${stored.failure}`,
      { reason: stored.failure },
    );
  throw new NoDataError(`No ${pair} rate found`, `the ECB published no ${pair} rate on or before the days asked`);
}
