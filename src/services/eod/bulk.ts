import { readVenueDayPage, type VenueDayRow } from "../../db/repositories/prices-venue-day";
import { BadRequestError, NoDataError } from "../../domain/errors";
import { requireCatalogueVenue } from "../../domain/market-hours";
import { decimalOrNull } from "../../domain/numbers";
import { closedReason, lastClosedSession } from "../../domain/venues";
import type { Context } from "../../platform/context";

export interface BulkQuery {
  exchange: string;
  /** A session of the venue; its last closed session when absent. */
  date?: string;
  fmt: "json" | "csv";
}

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

function jsonRow(r: VenueDayRow, date: string): string {
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
  });
}

/** A CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break. */
const csvField = (v: string | number | null) => {
  const text = v === null ? "" : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Prices as JSON writes them (123.45, not the column's 123.45000000). */
const csvRow = (r: VenueDayRow, date: string) =>
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
  ]
    .map(csvField)
    .join(",");

/**
 * The answer's text, a chunk a page: the CSV header or the JSON opening, each page's rows with a
 * bar, then (JSON) the counts and the listings without one.
 */
function render(pages: readonly VenueDayRow[][], exchange: string, date: string, fmt: BulkQuery["fmt"]): string[] {
  const chunks = [
    fmt === "csv" ? `${BULK_CSV_HEADER}\n` : `{"exchange":${JSON.stringify(exchange)},"date":"${date}","data":[`,
  ];
  const missing: { ticker: string; isin: string; currency: string }[] = [];
  let count = 0;
  for (const rows of pages) {
    const lines: string[] = [];
    for (const r of rows) {
      if (r.close === null) missing.push({ ticker: r.ticker, isin: r.isin, currency: r.currency });
      else lines.push(fmt === "csv" ? `${csvRow(r, date)}\n` : `${count++ > 0 ? "," : ""}${jsonRow(r, date)}`);
    }
    if (lines.length) chunks.push(lines.join(""));
  }
  if (fmt === "json")
    chunks.push(`],"count":${count},"missing_count":${missing.length},"missing":${JSON.stringify(missing)}}`);
  return chunks;
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
  const chunks = render(pages, venue.code, date, input.fmt);
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
