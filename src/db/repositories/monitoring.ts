import { count, gte } from "drizzle-orm";
import type { VerdictCount } from "../../domain/monitoring/validation-stats";
import type { Db } from "../client";
import { validationResults } from "../schema";

/** Verdicts of the validation layer since an instant, counted by provider, field and status. */
export async function verdictCounts(db: Db, since: Date): Promise<VerdictCount[]> {
  const rows = await db
    .select({
      provider: validationResults.providerName,
      field: validationResults.field,
      status: validationResults.status,
      n: count(),
    })
    .from(validationResults)
    .where(gte(validationResults.validatedAt, since))
    .groupBy(validationResults.providerName, validationResults.field, validationResults.status);
  return rows;
}
