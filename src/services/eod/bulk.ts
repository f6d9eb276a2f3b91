import { readVenueDayPage, type VenueDayRow } from "../../db/repositories/prices-venue-day";
import { BadRequestError, NoDataError } from "../../domain/errors";
import { isRatedCurrency } from "../../domain/fx/currencies";
import { convertDecimal, ROUNDING_RULE } from "../../domain/fx/rates";
import { requireCatalogueVenue } from "../../domain/market-hours";
import { decimalOrNull } from "../../domain/numbers";
import { closedReason, closeOf, lastClosedSession } from "../../domain/venues";
import type { Context } from "../../platform/context";
import { dayRates } from "../fx/convert";

export interface BulkQuery {
  exchange: string;
  /** A session of the venue; its last closed session when absent. */
  date?: string;
  fmt: "json" | "csv";
  /** Every bar in this currency, at the day's rate (services/fx/convert). */
  convert?: string;
}

/** What a converted day says of its conversion. */
type BulkConversion = { to: string; source: string; rounding: string; notes: string[] };

/** A converted row's rate: the row's own currency, the rate, its publication day and source. */
type RowRate = {
  from: string;
  rate: string;
  published: string;
  source: string;
  carried_forward: boolean;
} | null;

/** A day's prices of a venue, written as the rows are read. */
export interface BulkAnswer {
  contentType: string;
  body: ReadableStream<Uint8Array>;
  /** How long the answer may be kept by the caller: a later refresh may still add a listing's bar. */
  maxAgeSeconds: number;
}

/** Listings read per page: each page is one query, and one chunk of the answer. */
export const BULK_PAGE = 1000;
const MAX_AGE_SECONDS = 300;

export const BULK_CSV_HEADER = "Ticker,ISIN,Currency,Date,Open,High,Low,Close,Adj Close,Volume,Source";

function jsonRow(r: VenueDayRow, date: string, fx: RowRate | undefined): string {
  return JSON.stringify({
    ticker: r.ticker,
    isin: r.isin,
    name: r.name,
    currency: r.currency,
    date,
    open: decimalOrNull(r.open),
    high: decimalOrNull(r.high),
    low: decimalOrNull(r.low),
    close: decimalOrNull(r.close),
    adj_close: decimalOrNull(r.adj_close),
    volume: r.volume,
    data_source: r.data_source,
    ...(fx
      ? {
          fx_from: fx.from,
          fx_rate: fx.rate,
          fx_published: fx.published,
          fx_source: fx.source,
          fx_carried_forward: fx.carried_forward,
        }
      : {}),
  });
}

/** A CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break. */
const csvField = (v: string | number | null) => {
  const text = v === null ? "" : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Prices as JSON writes them (123.45, not the column's 123.45000000). */
const csvRow = (r: VenueDayRow, date: string, fx: RowRate | undefined) =>
  [
    r.ticker,
    r.isin,
    r.currency,
    date,
    decimalOrNull(r.open),
    decimalOrNull(r.high),
    decimalOrNull(r.low),
    decimalOrNull(r.close),
    decimalOrNull(r.adj_close),
    r.volume,
    r.data_source,
    ...(fx ? [fx.from, fx.rate, fx.published, fx.source] : []),
  ]
    .map(csvField)
    .join(",");

/**
 * The answer's text, a chunk a page: the CSV header or the JSON opening, each page's rows with a
 * bar, then (JSON) the counts and the listings without one.
 */
function render(
  pages: readonly VenueDayRow[][],
  exchange: string,
  date: string,
  fmt: BulkQuery["fmt"],
  fx: Map<number, RowRate> | null,
  conversion: BulkConversion | null,
): string[] {
  const header = fx ? `${BULK_CSV_HEADER},FX From,FX Rate,FX Published,FX Source` : BULK_CSV_HEADER;
  const chunks = [fmt === "csv" ? `${header}\n` : `{"exchange":${JSON.stringify(exchange)},"date":"${date}","data":[`];
  const missing: { ticker: string; isin: string; currency: string; reason?: string }[] = [];
  let count = 0;
  for (const rows of pages) {
    const lines: string[] = [];
    for (const r of rows) {
      const rate = fx?.get(r.listing_id);
      if (r.close === null) missing.push({ ticker: r.ticker, isin: r.isin, currency: r.currency });
      else if (rate === null)
        missing.push({
          ticker: r.ticker,
          isin: r.isin,
          currency: r.currency,
          reason: isRatedCurrency(r.currency)
            ? `no ${r.currency}/${conversion?.to} rate stored for ${date}${conversion?.notes.length ? " (see conversion.notes)" : ""}`
            : `no rates of ${r.currency}`,
        });
      else
        lines.push(fmt === "csv" ? `${csvRow(r, date, rate)}\n` : `${count++ > 0 ? "," : ""}${jsonRow(r, date, rate)}`);
    }
    if (lines.length) chunks.push(lines.join(""));
  }
  if (fmt === "json")
    chunks.push(
      `],"count":${count},"missing_count":${missing.length},"missing":${JSON.stringify(missing)}${conversion ? `,"conversion":${JSON.stringify(conversion)}` : ""}}`,
    );
  return chunks;
}

/**
 * The day's rows in another currency: each row's prices times its currency's rate of the day
 * (the venue's close decides the publication), rounded half to even to 6 decimals; a row whose
 * currency has no rates keeps a null rate (listed as missing, with why).
 */
async function convertRows(
  ctx: Context,
  pages: VenueDayRow[][],
  to: string,
  date: string,
  closeAt: Date,
): Promise<{ pages: VenueDayRow[][]; rates: Map<number, RowRate>; conversion: BulkConversion }> {
  const day = await dayRates(ctx, [...new Set(pages.flat().map((r) => r.currency))], to, date, closeAt);
  const rates = new Map<number, RowRate>();
  let source = "identity";
  const c = (x: string | null, rate: string) => (x === null ? null : convertDecimal(x, rate));
  const converted = pages.map((rows) =>
    rows.map((r) => {
      const pr = day.rateOf(r.currency);
      rates.set(
        r.listing_id,
        pr
          ? {
              from: r.currency,
              rate: pr.rate,
              published: pr.published,
              source: pr.source,
              carried_forward: pr.carried_forward,
            }
          : null,
      );
      if (pr && pr.source !== "identity") source = pr.source;
      if (!pr) return r;
      return {
        ...r,
        currency: day.to,
        open: c(r.open, pr.rate),
        high: c(r.high, pr.rate),
        low: c(r.low, pr.rate),
        close: c(r.close, pr.rate),
        adj_close: c(r.adj_close, pr.rate),
      };
    }),
  );
  return { pages: converted, rates, conversion: { to: day.to, source, rounding: ROUNDING_RULE, notes: day.notes } };
}

/**
 * GET /eod/bulk/{exchange}: every listing of a venue with its stored bar of one session
 * (after the daily refresh), JSON or CSV, read and written a page of listings at a time. Listings
 * without a stored bar that day are listed in `missing` (JSON) and left out of the CSV. A day the
 * venue held no session is a 404 saying the market was closed; a day after its last closed session
 * is a 400.
 */
export async function bulkEod({
  ctx,
  input,
  pageSize = BULK_PAGE,
}: {
  ctx: Context;
  input: BulkQuery;
  /** Listings per page (tests page through a small venue with a small one). */
  pageSize?: number;
}): Promise<BulkAnswer> {
  const venue = requireCatalogueVenue(input.exchange);
  const last = lastClosedSession(venue, ctx.clock.now());
  const date = input.date ?? last;
  if (date > last)
    throw new BadRequestError(`${venue.code}'s last closed session is ${last}: date must be on or before it`);
  const closed = closedReason(venue, date);
  if (closed)
    throw new NoDataError(
      `No data found for ${venue.code} on ${date}: the market was closed`,
      `market closed: ${venue.name} held no session on ${date} (${closed})`,
    );

  // Every page is read before the answer starts: an unreachable database is a 503, never a 200
  // cut short, and no query waits on the caller reading the stream.
  const pages: VenueDayRow[][] = [];
  for (let afterId = 0; ; ) {
    const rows = await readVenueDayPage(ctx.db, { exchange: venue.code, date, afterId, limit: pageSize });
    pages.push(rows);
    const lastRow = rows.at(-1);
    if (!lastRow || rows.length < pageSize) break;
    afterId = lastRow.listing_id;
  }
  const fx = input.convert ? await convertRows(ctx, pages, input.convert, date, closeOf(venue, date)) : null;
  const chunks = render(fx?.pages ?? pages, venue.code, date, input.fmt, fx?.rates ?? null, fx?.conversion ?? null);
  const encoder = new TextEncoder();
  // One chunk a pull, encoded as the caller reads.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk === undefined) controller.close();
      else controller.enqueue(encoder.encode(chunk));
    },
  });
  return {
    contentType: input.fmt === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
    body,
    maxAgeSeconds: MAX_AGE_SECONDS,
  };
}
