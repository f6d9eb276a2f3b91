import { and, eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { pricesDaily } from "../schema";
import {
  activeListingIds,
  activeListingsByIdQuery,
  activeListingsQuery,
  type ListingFilter,
  type ListingRow,
} from "./catalogue";
import { findingsQuery } from "./price-findings";
import { type BarWindow, barColumns, type ListingPrices, NO_PRICES, precisionQuery, toBar, toFinding } from "./prices";

/**
 * The active listings that `filter` names and, for each, its stored prices as `ListingPrices`
 * (`source`: the provider whose bars are asked about), in one round trip (one batch; each statement
 * reads committed rows as it starts, as the separate reads before it did): what /eod needs of the
 * database before it answers.
 */
export async function readTickerPrices(
  db: Db,
  filter: ListingFilter,
  window: BarWindow,
  source: string,
): Promise<{ listings: ListingRow[]; prices: Map<number, ListingPrices> }> {
  const candidates = activeListingIds(db, filter);
  const conditions = [inArray(pricesDaily.listingId, candidates)];
  if (window.from) conditions.push(gte(pricesDaily.date, window.from));
  if (window.to) conditions.push(lte(pricesDaily.date, window.to));
  const columns = { listingId: pricesDaily.listingId, ...barColumns, source: pricesDaily.dataSource };
  const inWindow = db
    .select(columns)
    .from(pricesDaily)
    .where(and(...conditions));
  // The newest N of each listing: ranked only when asked (`1d`, `5d`).
  const newestFirst = sql<number>`row_number() over (partition by ${pricesDaily.listingId} order by ${pricesDaily.date} desc)`;
  const ranked = db
    .select({ ...columns, rank: newestFirst.as("rank") })
    .from(pricesDaily)
    .where(and(...conditions))
    .as("ranked");
  const [rows, barRows, spans, found, checked] = await db.batch([
    activeListingsQuery(db, filter),
    window.lastBars ? db.select().from(ranked).where(lte(ranked.rank, window.lastBars)) : inWindow,
    spansQuery(db, inArray(pricesDaily.listingId, candidates), source),
    findingsQuery(db, activeListingIds(db, filter), window.from),
    precisionQuery(db, activeListingIds(db, filter)),
  ]);
  const prices = new Map<number, ListingPrices>();
  for (const l of rows) prices.set(l.id, { ...NO_PRICES, bars: [], findings: [] });
  for (const r of found) prices.get(r.listingId)?.findings.push(toFinding(r));
  for (const r of checked) {
    const p = prices.get(r.listingId);
    if (p) p.precision = r.precision;
  }
  for (const r of spans) {
    const p = prices.get(r.listingId);
    if (p) Object.assign(p, spansOf(r));
  }
  barRows.sort((a, b) => a.listingId - b.listingId || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  for (const r of barRows) {
    const p = prices.get(r.listingId);
    if (!p) continue;
    p.bars.push(toBar(r));
    if (r.source === source) p.windowHasSource = true;
  }
  return { listings: rows, prices };
}

/** Each listing's stored span and the span of its bars from `source` (an aggregate per listing). */
function spansQuery(db: Db, where: SQL, source: string) {
  return db
    .select({
      listingId: pricesDaily.listingId,
      first: sql<string>`min(${pricesDaily.date})`,
      last: sql<string>`max(${pricesDaily.date})`,
      count: sql<number>`count(*)::int`,
      sourcedFrom: sql<string | null>`min(${pricesDaily.date}) filter (where ${pricesDaily.dataSource} = ${source})`,
      sourcedTo: sql<string | null>`max(${pricesDaily.date}) filter (where ${pricesDaily.dataSource} = ${source})`,
    })
    .from(pricesDaily)
    .where(where)
    .groupBy(pricesDaily.listingId);
}

type SpanRow = Awaited<ReturnType<typeof spansQuery>>[number];

function spansOf(r: SpanRow): Pick<ListingPrices, "stored" | "sourced"> {
  return {
    stored: { first: r.first, last: r.last, count: Number(r.count) },
    sourced: r.sourcedFrom && r.sourcedTo ? { from: r.sourcedFrom, to: r.sourcedTo } : null,
  };
}

/**
 * The active listings among `ids`, each with its stored spans (as `listingSpans` reads them), in
 * one round trip: what a refresh of those listings needs before it asks any provider.
 */
export async function readListingsWithSpans(
  db: Db,
  ids: readonly number[],
  source: string,
): Promise<{ listing: ListingRow; spans: Pick<ListingPrices, "stored" | "sourced"> }[]> {
  if (ids.length === 0) return [];
  const [rows, spans] = await db.batch([
    activeListingsByIdQuery(db, ids),
    spansQuery(db, inArray(pricesDaily.listingId, [...ids]), source),
  ]);
  const byListing = new Map(spans.map((r) => [r.listingId, spansOf(r)]));
  return rows.map((listing) => ({ listing, spans: byListing.get(listing.id) ?? { stored: null, sourced: null } }));
}

/** A listing's stored span and the span of its bars from `source`, in one query. */
export async function listingSpans(
  db: Db,
  listingId: number,
  source: string,
): Promise<Pick<ListingPrices, "stored" | "sourced">> {
  const [row] = await spansQuery(db, eq(pricesDaily.listingId, listingId), source);
  return row ? spansOf(row) : { stored: null, sourced: null };
}

/** The stored prices of one listing, as `readTickerPrices` reads them for each. */
export function pricesOf(read: { prices: Map<number, ListingPrices> }, listingId: number): ListingPrices {
  return read.prices.get(listingId) ?? NO_PRICES;
}
