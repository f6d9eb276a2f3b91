import { findActiveListings, type ListingFilter, type ListingRow } from "../../db/repositories/catalogue";
import { BadRequestError } from "../../domain/errors";
import { isinProblem } from "../../domain/isin";
import { compareListings } from "../../domain/listing-choice";
import type { Context } from "../../platform/context";

/** Active listings matching the filters, in listing-choice order; at least one filter is required. */
export async function listListings({ ctx, input }: { ctx: Context; input: ListingFilter }): Promise<ListingRow[]> {
  const filter: ListingFilter = {};
  for (const k of ["ticker", "isin", "exchange", "currency"] as const) {
    const v = input[k]?.trim();
    if (v) filter[k] = v;
  }
  if (Object.keys(filter).length === 0) {
    throw new BadRequestError("At least one filter is required: ticker, isin, exchange or currency");
  }
  const problem = filter.isin ? isinProblem(filter.isin) : null;
  if (problem) throw new BadRequestError(problem);
  const rows = await findActiveListings(ctx.db, filter);
  return rows.sort(compareListings);
}
