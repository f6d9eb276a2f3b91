import type { Db } from "../../db/client";
import { insertUsageLogs } from "../../db/repositories/usage-logs";
import { entriesOf, type UsageEntry } from "../../domain/usage";

/**
 * Writes the entries of a batch of queue messages, up to 1,000 rows per statement. Entries that do not
 * parse are reported and dropped (retrying would not mend them); a database failure throws, so that
 * the caller retries the batch, and redelivered entries are skipped by their id.
 */
export async function writeUsageBatch(
  db: Db,
  bodies: readonly unknown[],
): Promise<{ written: number; invalid: number }> {
  const entries: UsageEntry[] = [];
  let invalid = 0;
  for (const body of bodies) {
    const of = entriesOf(body);
    entries.push(...of.entries);
    invalid += of.invalid;
  }
  if (invalid > 0) console.warn("usage entries dropped: not usage entries", invalid);
  return { written: entries.length ? await insertUsageLogs(db, entries) : 0, invalid };
}
