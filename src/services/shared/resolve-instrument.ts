import { type AssetRow, findActiveListingsWithAssets, type ListingRow } from "../../db/repositories/catalogue";
import { BadRequestError, NoDataError } from "../../domain/errors";
import { compareListings } from "../../domain/listing-choice";
import type { Context } from "../../platform/context";
import { resolveListingWithAsset } from "./resolve-listing";

export interface InstrumentQuery {
  ticker?: string;
  isin?: string;
  exchange?: string;
  currency?: string;
}

export interface Instrument {
  listing: ListingRow;
  asset: AssetRow;
}

/**
 * The listing a fundamentals request is about, chosen as /eod chooses it (by ticker, narrowed by ISIN,
 * currency and exchange); with an ISIN alone, that instrument's preferred listing among those
 * matching currency and exchange. A request can therefore never be answered about another instrument.
 */
export async function resolveInstrument({ ctx, input }: { ctx: Context; input: InstrumentQuery }): Promise<Instrument> {
  const ticker = input.ticker?.trim();
  const isin = input.isin?.trim().toUpperCase();
  if (!ticker && !isin) throw new BadRequestError("ticker or isin is required");
  let found: { listing: ListingRow; asset: AssetRow | undefined };
  if (ticker) {
    found = await resolveListingWithAsset({ ctx, input: { ...input, ticker: ticker.toUpperCase(), isin } });
  } else {
    const { listings, assets } = await findActiveListingsWithAssets(ctx.db, {
      isin,
      currency: input.currency,
      exchange: input.exchange,
    });
    const chosen = listings.sort(compareListings)[0];
    if (!chosen) {
      const narrowed = [input.currency && `currency ${input.currency}`, input.exchange && `exchange ${input.exchange}`]
        .filter(Boolean)
        .join(" and ");
      throw new NoDataError(
        `No data found for ${isin}`,
        narrowed
          ? `no listing of ${isin} with ${narrowed} in the catalogue`
          : `${isin} is not an instrument of the catalogue`,
      );
    }
    found = { listing: chosen, asset: assets.get(chosen.assetId) };
  }
  const { listing, asset } = found;
  if (!asset) throw new NoDataError(`No data found for ${listing.ticker}`, "the listing's instrument is gone");
  return { listing, asset };
}
