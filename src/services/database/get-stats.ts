import { type DatabaseTotals, databaseTotals } from "../../db/repositories/price-stats";
import type { Deps } from "../../deps";

/** GET /database/stats. */
export async function getDatabaseStats({ ctx }: { ctx: Deps }): Promise<DatabaseTotals> {
  return databaseTotals(ctx.db.db);
}
