import { requestsForTicker, type StoredSeries, storedSeries } from "../../db/repositories/price-stats";
import type { Deps } from "../../deps";
import { NotFoundError } from "../../domain/errors";
import { DAY_MS } from "../../domain/instants";

/** GET /database/tickers: every listing with stored prices. */
export async function listStoredSeries({ ctx }: { ctx: Deps }): Promise<StoredSeries[]> {
  return storedSeries(ctx.db.db);
}

/** GET /database/ticker/{ticker}: the stored series of the ticker's listings and its API requests; 404 when nothing is stored. */
export async function getStoredTicker({ ctx, input }: { ctx: Deps; input: { ticker: string } }) {
  const [series, requests] = await Promise.all([
    storedSeries(ctx.db.db, input.ticker),
    requestsForTicker(ctx.db.db, input.ticker, new Date(ctx.clock.now().getTime() - DAY_MS)),
  ]);
  if (series.length === 0) throw new NotFoundError("Stored prices of ticker", input.ticker);
  return { series, requests };
}
