import type { ListingRow } from "../../db/repositories/catalogue";
import { NoDataError } from "../../domain/errors";
import { catalogueVenue, closedThroughout } from "../../domain/market-hours";

/**
 * A past window on which the listing's venue held no session (a holiday, a weekend): nothing can be
 * ingested for it, no provider is asked, and the 404 says the market was closed, day by day. The
 * one rule of /eod and /intraday.
 */
export function refuseClosedWindow(
  listing: ListingRow,
  window: { from: string | null; to: string | null },
  today: string,
): void {
  if (!window.from || !window.to || window.to >= today) return;
  // Only a venue whose calendar the catalogue holds can prove it was closed.
  const venue = catalogueVenue(listing.exchange);
  if (!venue) return;
  const closed = closedThroughout(venue, window.from, window.to);
  if (!closed) return;
  throw new NoDataError(
    `No data found for ${listing.ticker}: the market was closed`,
    `market closed: ${venue.name} held no session from ${window.from} to ${window.to} (${closed
      .map((d) => `${d.date} ${d.reason}`)
      .join("; ")})`,
  );
}
