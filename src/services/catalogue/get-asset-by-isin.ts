import type { AssetRow, ListingRow } from "../../db/repositories/catalogue";
import { findAssetByIsin } from "../../db/repositories/catalogue";
import type { Deps } from "../../deps";
import { BadRequestError, NotFoundError } from "../../domain/errors";
import { normaliseIsin } from "../../domain/isin";
import { preferredShown } from "../../domain/listing-choice";

export interface AssetWithListings {
  asset: AssetRow;
  preferred: ListingRow | undefined;
  listings: ListingRow[];
}

/** An instrument, its preferred listing (active ones first by the listing-choice rule) and all its listings. */
export async function getAssetByIsin({
  ctx,
  input,
}: {
  ctx: Deps;
  input: { isin: string };
}): Promise<AssetWithListings> {
  const isin = normaliseIsin(input.isin);
  if (!isin)
    throw new BadRequestError(`Invalid ISIN '${input.isin}': expected two letters followed by ten letters or digits`);
  const found = await findAssetByIsin(ctx.db.db, isin);
  if (!found) throw new NotFoundError("Instrument with ISIN", isin);
  return {
    asset: found.asset,
    preferred: preferredShown(found.listings),
    listings: found.listings,
  };
}
