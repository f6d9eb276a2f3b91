import { assetIdsOfTickers } from "../../db/repositories/catalogue";
import { readEarningsCalendar, type StoredReport } from "../../db/repositories/earnings-calendar";
import { BadRequestError } from "../../domain/errors";
import { addDays, DAY_MS } from "../../domain/instants";
import type { Context } from "../../platform/context";

/** The widest window one request may ask for (a year and a day: a year's four reports of each instrument). */
export const MOST_CALENDAR_DAYS = 366;
/** Instruments one request may name. */
export const MOST_CALENDAR_TICKERS = 50;
/** The window when none is given: the coming week, as EODHD's calendar. */
const DEFAULT_DAYS = 7;

export interface EarningsCalendarQuery {
  from?: string;
  to?: string;
  /** Comma-separated catalogue tickers. */
  tickers?: string;
}

export interface EarningsCalendar {
  window: { from: string; to: string };
  reports: StoredReport[];
  /** Tickers asked for that no active listing of the catalogue bears. */
  unknown: string[];
}

/**
 * The earnings calendar of the catalogue (spec-free route, EODHD's /calendar/earnings): the reports
 * of a window as stored by the weekly earnings refresh (coming ones with their day or expected
 * range and the analysts' estimates, past ones with their actuals), for every instrument or the
 * listed tickers' instruments. Read from the database only.
 */
export async function getEarningsCalendar({
  ctx,
  input,
}: {
  ctx: Context;
  input: EarningsCalendarQuery;
}): Promise<EarningsCalendar> {
  const from = input.from ?? ctx.clock.today();
  const to = input.to ?? addDays(from, DEFAULT_DAYS);
  if (from > to) throw new BadRequestError(`from (${from}) is after to (${to})`);
  const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
  if (days > MOST_CALENDAR_DAYS)
    throw new BadRequestError(
      `the window from ${from} to ${to} spans ${days} days; a request may span ${MOST_CALENDAR_DAYS} at most`,
    );
  const asked = input.tickers
    ? [
        ...new Set(
          input.tickers
            .split(",")
            .map((t) => t.trim().toUpperCase())
            .filter(Boolean),
        ),
      ]
    : null;
  if (asked && asked.length > MOST_CALENDAR_TICKERS)
    throw new BadRequestError(
      `tickers names ${asked.length} tickers; a request may name ${MOST_CALENDAR_TICKERS} at most`,
    );
  const found = asked ? await assetIdsOfTickers(ctx.db, asked) : null;
  const assetIds = found ? [...new Set([...found.values()].flat())] : null;
  const reports = await readEarningsCalendar(ctx.db, { from, to, assetIds });
  return { window: { from, to }, reports, unknown: asked ? asked.filter((t) => !found?.has(t)) : [] };
}
