import { type DatabaseTotals, databaseTotals } from "../../db/repositories/price-stats";
import { DAY_MS } from "../../domain/instants";
import type { Context } from "../../platform/context";

/** GET /database/stats: stored prices and tickers, and the API requests of the last 24 hours on the service's clock. */
export async function getDatabaseStats({ ctx }: { ctx: Context }): Promise<DatabaseTotals> {
  return databaseTotals(ctx.db, new Date(ctx.clock.now().getTime() - DAY_MS));
}
