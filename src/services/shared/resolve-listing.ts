import {
  type AssetRow,
  findActiveListings,
  findActiveListingsWithAssets,
  type ListingRow,
} from "../../db/repositories/catalogue";
import { pricesOf, readTickerPrices } from "../../db/repositories/listing-prices";
import type { BarWindow, ListingPrices } from "../../db/repositories/prices";
import { NoDataError } from "../../domain/errors";
import { compareListings } from "../../domain/listing-choice";
import { splitSuffix } from "../../domain/provider-symbols";
import type { Context } from "../../platform/context";
import { discover } from "../catalogue/additions/discover";

export type { ListingRow };

export interface ListingQuery {
  ticker: string;
  isin?: string;
  currency?: string;
  exchange?: string;
}

const upper = (s: string | undefined) => s?.trim().toUpperCase() || undefined;

/** The 404 of a ticker (within an ISIN's instrument) that no active listing bears. */
function noListing({ ticker, isin }: ListingQuery): never {
  throw new NotListed(
    ticker,
    isin
      ? `no listing of ${ticker} for ISIN ${upper(isin)} in the catalogue`
      : `${ticker} is not a listing of the catalogue`,
  );
}

/** No active listing bears the ticker: what discovery may change (a currency or exchange that does not match is not). */
class NotListed extends NoDataError {
  constructor(
    ticker: string,
    readonly why: string,
  ) {
    super(`No data found for ${ticker}`, why);
  }
}

/**
 * Runs a resolution; when no listing bears the ticker and discovery is on, the instrument is added
 * from what providers say (by the ISIN given, else by the symbol) and the resolution runs once more.
 * Only requests with a key discover (a cron or a queue never does), within the key's budget.
 */
async function withDiscovery<T>(ctx: Context, input: ListingQuery, resolve: () => Promise<T>): Promise<T> {
  try {
    return await resolve();
  } catch (err) {
    if (!(err instanceof NotListed) || !ctx.config.CATALOGUE_DISCOVERY || !ctx.caller) throw err;
    const found = await discover(ctx, input);
    if (found === "known") throw err;
    if (found !== null) throw new NoDataError(err.message, `${err.why}; ${found}`);
    return resolve();
  }
}

/**
 * Spec rules 3 to 5 on the listings bearing the ticker (with an ISIN, only that instrument's):
 * narrowed by currency and exchange, then primary first, currency, exchange. Throws a 404 with a
 * reason naming what did not match.
 */
function chooseListing(input: ListingQuery, rows: readonly ListingRow[]): ListingRow {
  const { ticker } = input;
  const isin = upper(input.isin);
  if (rows.length === 0) noListing(input);
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

/**
 * The candidates' filters in the order they are tried: the ticker (within the ISIN's instrument
 * when one is given), then with an ISIN the unsuffixed base ticker within that instrument.
 */
function candidateFilters(input: ListingQuery): { ticker: string; isin?: string }[] {
  const isin = upper(input.isin);
  if (!isin) return [{ ticker: input.ticker }];
  const { base, suffix } = splitSuffix(input.ticker);
  return suffix
    ? [
        { ticker: input.ticker, isin },
        { ticker: base, isin },
      ]
    : [{ ticker: input.ticker, isin }];
}

/** The listing an /eod-like request reads (see `chooseListing`) and its instrument, in one round trip (see `resolveListingWithPrices`). */
export function resolveListingWithAsset({
  ctx,
  input,
}: {
  ctx: Context;
  input: ListingQuery;
}): Promise<{ listing: ListingRow; asset: AssetRow | undefined }> {
  return withDiscovery(ctx, input, async () => {
    for (const filter of candidateFilters(input)) {
      const found = await findActiveListingsWithAssets(ctx.db, filter);
      if (found.listings.length === 0) continue;
      const listing = chooseListing(input, found.listings);
      return { listing, asset: found.assets.get(listing.assetId) };
    }
    return noListing(input);
  });
}

/** The listing an /eod-like request reads (see `chooseListing`). */
export function resolveListing({ ctx, input }: { ctx: Context; input: ListingQuery }): Promise<ListingRow> {
  return withDiscovery(ctx, input, async () => {
    let rows: ListingRow[] = [];
    for (const filter of candidateFilters(input)) {
      rows = await findActiveListings(ctx.db, filter);
      if (rows.length > 0) break;
    }
    return chooseListing(input, rows);
  });
}

/** The listing `resolveListing` chooses, or null when no active listing bears the ticker (where that is no error). */
export async function findListing({ ctx, input }: { ctx: Context; input: ListingQuery }): Promise<ListingRow | null> {
  try {
    return await resolveListing({ ctx, input });
  } catch (err) {
    if (err instanceof NoDataError) return null;
    throw err;
  }
}

/**
 * The listing as `resolveListing` chooses it, with its stored prices in `window`, in one database
 * round trip (two only for an ISIN request whose suffixed ticker is not in the catalogue).
 */
export async function resolveListingWithPrices({
  ctx,
  input,
}: {
  ctx: Context;
  input: ListingQuery & { window: BarWindow; source: string };
}): Promise<{ listing: ListingRow; prices: ListingPrices }> {
  return withDiscovery(ctx, input, async () => {
    for (const filter of candidateFilters(input)) {
      const read = await readTickerPrices(ctx.db, filter, input.window, input.source);
      if (read.listings.length === 0) continue;
      const listing = chooseListing(input, read.listings);
      return { listing, prices: pricesOf(read, listing.id) };
    }
    return noListing(input);
  });
}
