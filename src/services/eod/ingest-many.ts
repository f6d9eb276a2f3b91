import { findActiveListings, type ListingRow } from "../../db/repositories/catalogue";
import { type DateRange, dayBefore, earlier } from "../../domain/ingest-plan";
import { type IngestReport, reportWithoutFetch } from "../../domain/ingest-report";
import { fetchFromOf, type Period, tenYearsBefore } from "../../domain/periods";
import type { Context } from "../../platform/context";
import { givenRange } from "../date-range";
import { StillRunningError } from "../shared/single-flight";
import { ingestListing } from "./ingest-listing";

export interface IngestRequest {
  tickers: string[];
  isins: string[];
  period?: Period;
  from?: string;
  to?: string;
}

export interface IngestOutcome {
  /** What the caller named (a ticker or an ISIN). */
  query: string;
  /** Both null when the catalogue has no active listing for it. */
  listing: ListingRow | null;
  report: IngestReport | null;
}

/** At most this many listings are ingested side by side: each holds a database connection and a provider call. */
const PARALLEL = 3;

/**
 * The dates to make sure are stored: from/to as given, else the period's window up to yesterday
 * (`max` and the bar-size periods mean all history), else ten years as a fresh ingestion does.
 */
export function ingestWindow(req: Pick<IngestRequest, "period" | "from" | "to">, today: string): DateRange {
  const yesterday = dayBefore(today);
  const range = givenRange(req.from, req.to);
  if (range) return { from: range.from, to: earlier(range.to, yesterday) };
  return { from: req.period ? fetchFromOf(req.period, today) : tenYearsBefore(today), to: yesterday };
}

async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** One listing's ingestion; another request's unfinished one is this listing's failure, not the batch's. */
async function ingestOrReport(
  ctx: Context,
  listing: ListingRow,
  wanted: DateRange,
  today: string,
): Promise<IngestReport> {
  try {
    return await ingestListing({ ctx, input: { listing, wanted, today } });
  } catch (err) {
    if (!(err instanceof StillRunningError)) throw err;
    return reportWithoutFetch(wanted, "failed", [{ provider: "ingestion", message: err.message, transient: true }]);
  }
}

/**
 * POST /historical/ingest: every active listing bearing each ticker and every listing of each ISIN,
 * each ingested for the window; a name the catalogue does not know is reported, not fatal.
 */
export async function ingestMany({
  ctx,
  input,
}: {
  ctx: Context;
  input: IngestRequest;
}): Promise<{ window: DateRange; outcomes: IngestOutcome[] }> {
  const today = ctx.clock.today();
  const window = ingestWindow(input, today);
  const db = ctx.db;
  const targets: { query: string; listing: ListingRow | null }[] = [];
  const seen = new Set<number>();
  const queries = [
    ...input.tickers.map((t) => ({ query: t, filter: { ticker: t } })),
    ...input.isins.map((i) => ({ query: i, filter: { isin: i } })),
  ];
  for (const { query, filter } of queries) {
    const rows = await findActiveListings(db, filter);
    if (rows.length === 0) targets.push({ query, listing: null });
    for (const listing of rows) {
      if (seen.has(listing.id)) continue;
      seen.add(listing.id);
      targets.push({ query, listing });
    }
  }
  const outcomes = await inParallel(targets, PARALLEL, async ({ query, listing }) => ({
    query,
    listing,
    report: listing ? await ingestOrReport(ctx, listing, window, today) : null,
  }));
  return { window, outcomes };
}
