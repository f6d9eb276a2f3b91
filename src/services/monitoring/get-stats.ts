import { verdictCounts } from "../../db/repositories/monitoring";
import type { Deps } from "../../deps";
import { validationStatistics } from "../../domain/monitoring/validation-stats";

const WEEK_MS = 7 * 86_400_000;

/** GET /health/stats: the validation layer's verdicts of the last 7 days. */
export async function getValidationStats({ ctx }: { ctx: Deps }) {
  return validationStatistics(await verdictCounts(ctx.db.db, new Date(ctx.clock.now().getTime() - WEEK_MS)));
}
