import { and, eq, ne, sql } from "drizzle-orm";
import type { Verdict } from "../../domain/fundamentals/validation";
import type { Db, Queryable } from "../client";
import { validationResults } from "../schema";
import { storableText } from "../text";

/**
 * Stores the validation layer's verdicts: one row per provider, instrument, field and day, the
 * latest verdict of the day replacing an earlier one (a retry or a concurrent request counts once).
 */
export async function recordVerdicts(
  db: Db,
  input: { ticker: string; day: string; at: Date; verdicts: readonly Verdict[] },
): Promise<void> {
  // One row per key in one statement (Postgres refuses to update a row twice in one INSERT).
  const byKey = new Map<string, Verdict>();
  for (const v of input.verdicts) byKey.set(`${v.provider}|${v.field}`, v);
  if (byKey.size === 0) return;
  const ticker = storableText(input.ticker, 32);
  await db
    .insert(validationResults)
    .values(
      [...byKey.values()].map((v) => ({
        providerName: v.provider,
        ticker,
        field: v.field,
        value: v.raw === null ? null : String(v.raw),
        status: v.status,
        reason: v.reason === null ? null : storableText(v.reason, 500),
        validatedOn: input.day,
        validatedAt: input.at,
      })),
    )
    .onConflictDoUpdate({
      target: [
        validationResults.providerName,
        validationResults.ticker,
        validationResults.field,
        validationResults.validatedOn,
      ],
      set: {
        value: sql`excluded.value`,
        status: sql`excluded.status`,
        reason: sql`excluded.reason`,
        validatedAt: sql`excluded.validated_at`,
      },
    });
}

/** A provider's values the validation refused for a ticker on a day (neither valid nor absent). */
export function refusedValues(db: Queryable, provider: string, ticker: string, day: string) {
  return db
    .select()
    .from(validationResults)
    .where(
      and(
        eq(validationResults.providerName, provider),
        eq(validationResults.ticker, ticker),
        eq(validationResults.validatedOn, day),
        ne(validationResults.status, "valid"),
        ne(validationResults.status, "null"),
      ),
    );
}
