import { findActiveListings, type ListingRow } from "../../db/repositories/catalogue";
import type { Deps } from "../../deps";
import { NoDataError } from "../../domain/errors";
import { compareListings } from "../../domain/listing-choice";
import { splitSuffix } from "../../domain/provider-symbols";

export interface ListingQuery {
  ticker: string;
  isin?: string;
  currency?: string;
  exchange?: string;
}

const upper = (s: string | undefined) => s?.trim().toUpperCase() || undefined;

/**
 * The listing an /eod request reads (spec rules 3 to 5): the listings bearing the ticker (with an
 * ISIN, only that instrument's, falling back to the unsuffixed base ticker within it), narrowed by
 * currency and exchange, then primary first, currency, exchange. Throws a 404 with a reason naming
 * what did not match.
 */
export async function resolveListing({ ctx, input }: { ctx: Deps; input: ListingQuery }): Promise<ListingRow> {
  const { ticker } = input;
  const isin = upper(input.isin);
  const db = ctx.db.db;
  let rows = await findActiveListings(db, isin ? { ticker, isin } : { ticker });
  if (rows.length === 0 && isin) {
    const { base, suffix } = splitSuffix(ticker);
    if (suffix) rows = await findActiveListings(db, { ticker: base, isin });
  }
  if (rows.length === 0) {
    const reason = isin
      ? `no listing of ${ticker} for ISIN ${isin} in the catalogue`
      : `${ticker} is not a listing of the catalogue`;
    throw new NoDataError(`No data found for ${ticker}`, reason);
  }
  const currency = upper(input.currency);
  const exchange = upper(input.exchange);
  const chosen = rows
    .filter(
      (r) =>
        (!currency || r.currency.toUpperCase() === currency) && (!exchange || r.exchange?.toUpperCase() === exchange),
    )
    .sort(compareListings)[0];
  if (!chosen) {
    const wanted = [isin && `ISIN ${isin}`, currency && `currency ${currency}`, exchange && `exchange ${exchange}`]
      .filter(Boolean)
      .join(" and ");
    const offered = rows.map((r) => `${r.ticker} ${r.exchange ?? "?"}/${r.currency}`).join(", ");
    throw new NoDataError(
      `No data found for ${ticker}`,
      `no listing of ${ticker} for ${wanted} (listings: ${offered})`,
    );
  }
  return chosen;
}
