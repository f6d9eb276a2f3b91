import type { AssetRow, ListingRow } from "../../db/repositories/catalogue";
import { findAssetByIsin } from "../../db/repositories/catalogue";
import type { Deps } from "../../deps";
import { BadRequestError, NotFoundError } from "../../domain/errors";
import { isinProblem, normaliseIsin } from "../../domain/isin";
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
  const problem = isinProblem(input.isin);
  const isin = normaliseIsin(input.isin);
  // A wrong check digit is a 400, not the spec's 404 for an unknown ISIN: it names no instrument anywhere.
  if (problem || !isin) throw new BadRequestError(problem ?? `Invalid ISIN '${input.isin}'`);
  const found = await findAssetByIsin(ctx.db.db, isin);
  if (!found) throw new NotFoundError("Instrument with ISIN", isin);
  return {
    asset: found.asset,
    preferred: preferredShown(found.listings),
    listings: found.listings,
  };
}
