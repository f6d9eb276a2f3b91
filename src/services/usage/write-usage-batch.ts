import type { Db } from "../../db/client";
import { insertAnonymousCounts, insertUsageLogs } from "../../db/repositories/usage-logs";
import { type AnonymousCount, type UsageEntry, usageOf } from "../../domain/usage";

/**
 * Writes the entries of a batch of queue messages, up to 1,000 rows per statement, and the counts of
 * keyless requests they carry. What does not parse is reported and dropped (retrying would not mend
 * it); a database failure throws, so that the caller retries the batch, and redelivered entries and
 * counts are skipped by their ids.
 */
export async function writeUsageBatch(
  db: Db,
  bodies: readonly unknown[],
): Promise<{ written: number; counted: number; invalid: number }> {
  const entries: UsageEntry[] = [];
  const counts: AnonymousCount[] = [];
  let invalid = 0;
  for (const body of bodies) {
    const of = usageOf(body);
    entries.push(...of.entries);
    counts.push(...of.counts);
    invalid += of.invalid;
  }
  if (invalid > 0) console.warn("usage entries dropped: not usage entries", invalid);
  const written = entries.length ? await insertUsageLogs(db, entries) : 0;
  const counted = counts.length ? await insertAnonymousCounts(db, counts) : 0;
  return { written, counted, invalid };
}
