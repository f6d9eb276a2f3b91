import { type DatabaseTotals, databaseTotals } from "../../db/repositories/price-stats";
import type { Deps } from "../../deps";
import { DAY_MS } from "../../domain/instants";

/** GET /database/stats: stored prices and tickers, and the API requests of the last 24 hours on the service's clock. */
export async function getDatabaseStats({ ctx }: { ctx: Deps }): Promise<DatabaseTotals> {
  return databaseTotals(ctx.db.db, new Date(ctx.clock.now().getTime() - DAY_MS));
}
