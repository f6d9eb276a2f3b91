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

/** How long entries gather before one send carries them all, and how many one send may carry (Queues' limit). */
const LINGER_MS = 50;
const SEND_BATCH = 100;
/** Entries kept for another try when a send fails; beyond this the oldest are dropped (and said so). */
const MAX_PENDING = 1000;

/**
 * The Cloudflare Queue producer of one isolate: entries of concurrent requests gather for LINGER_MS
 * and leave in one `sendBatch` (a send per request cost a quarter of a small route's throughput).
 * The request that finds no send scheduled schedules one and keeps it in its `waitUntil`; the
 * others only add their entry. A failed send puts its entries back for the next one.
 */
class BatchingProducer {
  private pending: UsageEntry[] = [];
  private scheduled = false;

  constructor(private readonly queue: Queue<UsageEntry>) {}

  record(entry: UsageEntry): Promise<void> {
    this.pending.push(entry);
    if (this.scheduled) return Promise.resolve();
    this.scheduled = true;
    return this.sendSoon();
  }

  private async sendSoon(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, LINGER_MS));
    // Taken and unscheduled in one step: an entry that comes during the send schedules the next one.
    const taken = this.pending;
    this.pending = [];
    this.scheduled = false;
    for (let i = 0; i < taken.length; i += SEND_BATCH) {
      const chunk = taken.slice(i, i + SEND_BATCH);
      try {
        await this.queue.sendBatch(chunk.map((body) => ({ body })));
      } catch (err) {
        console.warn("usage entries not queued, kept for the next send", chunk.length, String(err));
        this.pending.unshift(...chunk);
        const dropped = this.pending.length - MAX_PENDING;
        if (dropped > 0)
          console.warn("usage entries dropped: the queue refuses them", this.pending.splice(0, dropped).length);
      }
    }
  }
}

const producers = new WeakMap<Queue<UsageEntry>, BatchingProducer>();

/** The Cloudflare Queue producer (one per isolate and binding): the consumer writes the rows. */
export function queueSink(queue: Queue<UsageEntry>): UsageSink {
  let producer = producers.get(queue);
  if (!producer) {
    producer = new BatchingProducer(queue);
    producers.set(queue, producer);
  }
  const p = producer;
  return { record: (entry) => p.record(entry) };
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
