import type { AssetRow, ListingRow } from "../../db/repositories/catalogue";
import { findAssetByIsin } from "../../db/repositories/catalogue";
import type { Deps } from "../../deps";
import { BadRequestError, NoDataError, NotFoundError } from "../../domain/errors";
import { isinProblem, normaliseIsin } from "../../domain/isin";
import { preferredShown } from "../../domain/listing-choice";
import { addByIsin } from "./additions/add-instrument";

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
  const found = (await findAssetByIsin(ctx.db.db, isin)) ?? (await discovered(ctx, isin));
  if (found.asset.removedAt)
    throw new NoDataError(
      `Instrument with ISIN '${isin}' not found`,
      `removed from the catalogue on ${found.asset.removedAt.toISOString().slice(0, 10)}`,
    );
  return {
    asset: found.asset,
    preferred: preferredShown(found.listings),
    listings: found.listings,
  };
}

/** An ISIN the catalogue lacks: added from what providers say when discovery is on, else the spec's 404. */
async function discovered(ctx: Deps, isin: string): Promise<{ asset: AssetRow; listings: ListingRow[] }> {
  if (!ctx.config.CATALOGUE_DISCOVERY || !ctx.caller) throw new NotFoundError("Instrument with ISIN", isin);
  const addition = await addByIsin(ctx, { via: "discovery" }, isin);
  return { asset: addition.found.asset, listings: addition.found.listings };
}
