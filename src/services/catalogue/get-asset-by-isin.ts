import type { AssetRow, ListingRow } from "../../db/repositories/catalogue";
import { findAssetByIsin } from "../../db/repositories/catalogue";
import { BadRequestError, NoDataError, RateLimitedError, ServiceError } from "../../domain/errors";
import { isoDay } from "../../domain/instants";
import { isinProblem, normaliseIsin } from "../../domain/isin";
import { preferredShown } from "../../domain/listing-choice";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { type AssetWithListings, addByIsin } from "./additions/add-instrument";

export type { AssetWithListings };

/** An instrument, its preferred listing (active ones first by the listing-choice rule) and all its listings. */
export async function getAssetByIsin({
  ctx,
  input,
}: {
  ctx: Context;
  input: { isin: string };
}): Promise<AssetWithListings> {
  const problem = isinProblem(input.isin);
  const isin = normaliseIsin(input.isin);
  // A wrong check digit is a 400, not the spec's 404 for an unknown ISIN: it names no instrument anywhere.
  if (problem || !isin) throw new BadRequestError(problem ?? `Invalid ISIN '${input.isin}'`);
  const found = (await findAssetByIsin(ctx.db, isin)) ?? (await discovered(ctx, isin));
  if (found.asset.removedAt)
    throw new NoDataError(
      `Instrument with ISIN '${isin}' not found`,
      `removed from the catalogue on ${isoDay(found.asset.removedAt)}`,
    );
  return {
    asset: found.asset,
    preferred: preferredShown(found.listings),
    listings: found.listings,
  };
}

/** An ISIN the catalogue lacks: added from what providers say when discovery is on, else the spec's 404. */
async function discovered(ctx: Context, isin: string): Promise<{ asset: AssetRow; listings: ListingRow[] }> {
  // The same 404 whether or not the providers were asked: its reason says which.
  if (!ctx.config.CATALOGUE_DISCOVERY || !ctx.caller)
    throw new NoDataError(
      `Instrument with ISIN '${isin}' not found`,
      `not in the catalogue, and reads do not add instruments here (CATALOGUE_DISCOVERY=false): a POST /assets with a full-access key adds it`,
    );
  try {
    const addition = await addByIsin(ctx, { via: "discovery" }, isin);
    return { asset: addition.found.asset, listings: addition.found.listings };
  } catch (err) {
    // The spec's answer for an instrument the catalogue lacks is a 404: why it could not be added is its reason.
    if (err instanceof RateLimitedError || err instanceof NoDataError) throw err;
    const why =
      err instanceof ServiceError
        ? (err.extra.reason ?? err.message)
        : err instanceof ProviderError
          ? `it could not be looked up (${err.message}); asked again on the next read`
          : null;
    if (why === null) throw err;
    throw new NoDataError(`Instrument with ISIN '${isin}' not found`, why);
  }
}
