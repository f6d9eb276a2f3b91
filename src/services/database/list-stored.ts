import { requestsForTicker, type StoredSeries, storedSeries } from "../../db/repositories/price-stats";

export type { StoredSeries };

import { NotFoundError } from "../../domain/errors";
import { DAY_MS } from "../../domain/instants";
import type { Context } from "../../platform/context";

/** GET /database/tickers: every listing with stored prices. */
export async function listStoredSeries({ ctx }: { ctx: Context }): Promise<StoredSeries[]> {
  return storedSeries(ctx.db);
}

/** GET /database/ticker/{ticker}: the stored series of the ticker's listings and its API requests; 404 when nothing is stored. */
export async function getStoredTicker({ ctx, input }: { ctx: Context; input: { ticker: string } }) {
  const [series, requests] = await Promise.all([
    storedSeries(ctx.db, input.ticker),
    requestsForTicker(ctx.db, input.ticker, new Date(ctx.clock.now().getTime() - DAY_MS)),
  ]);
  if (series.length === 0) throw new NotFoundError("Stored prices of ticker", input.ticker);
  return { series, requests };
}
