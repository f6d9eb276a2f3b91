import { z } from "zod";
import type { Db } from "../../db/client";
import { insertUsageLogs } from "../../db/repositories/usage-logs";

/** One request's usage row, as the middleware makes it and the queue carries it. */
export const UsageEntrySchema = z.object({
  /** Given when the request ends; the row's idempotency key. */
  id: z.string().min(1).max(64),
  method: z.string().max(16),
  route: z.string().max(200),
  ticker: z.string().max(32).nullable(),
  keyKind: z.enum(["full", "read_only", "none"]),
  status: z.number().int(),
  latencyMs: z.number().int(),
  /** When the request came, on the service's clock (retention and the 24-hour counts read this clock too). */
  createdAt: z.coerce.date(),
});

export type UsageEntry = z.infer<typeof UsageEntrySchema>;

/** Where usage entries go: a queue off the request path, or straight to Postgres where no queue is bound. */
export interface UsageSink {
  record(entry: UsageEntry): Promise<void>;
}

const toRow = (e: UsageEntry) => ({
  entryId: e.id,
  method: e.method,
  route: e.route,
  ticker: e.ticker,
  keyKind: e.keyKind,
  status: e.status,
  latencyMs: e.latencyMs,
  createdAt: e.createdAt,
});

/** The Cloudflare Queue producer: the request only hands the entry over; the consumer batches the writes. */
export function queueSink(queue: Queue<UsageEntry>): UsageSink {
  return {
    record: async (entry) => {
      await queue.send(entry);
    },
  };
}

/** No queue bound: the entry is written at once (one INSERT per request). A failure is logged, never the request's. */
export function directSink(db: () => Db | null): UsageSink {
  return {
    record: async (entry) => {
      const handle = db();
      if (!handle) return;
      try {
        await insertUsageLogs(handle, [toRow(entry)]);
      } catch (err) {
        console.warn("usage log not written", entry.route, String(err));
      }
    },
  };
}

/**
 * Writes a batch of queued entries in one statement per 100. Entries that do not parse are
 * reported and dropped (retrying would not mend them); a database failure throws, so that the
 * caller retries the batch, and redelivered entries are skipped by their id.
 */
export async function writeUsageBatch(
  db: Db,
  bodies: readonly unknown[],
): Promise<{ written: number; invalid: number }> {
  const entries: UsageEntry[] = [];
  let invalid = 0;
  for (const body of bodies) {
    const parsed = UsageEntrySchema.safeParse(body);
    if (parsed.success) entries.push(parsed.data);
    else invalid += 1;
  }
  if (invalid > 0) console.warn("usage entries dropped: not usage entries", invalid);
  return { written: entries.length ? await insertUsageLogs(db, entries.map(toRow)) : 0, invalid };
}
