import type { Db } from "../db/client";
import { insertAnonymousCounts, insertUsageLogs } from "../db/repositories/usage-logs";
import { type AnonymousCount, splitAnonymous, type UsageEntry, type UsageMessage } from "../domain/usage";
import { sleep } from "./sleep";

/** Where usage entries go: a queue off the request path, or straight to Postgres where no queue is bound. */
export interface UsageSink {
  record(entry: UsageEntry): Promise<void>;
}

/** Where the queue's fallback writes: entries as rows, keyless requests as counts. */
export interface UsageStore {
  write(entries: readonly UsageEntry[], counts: readonly AnonymousCount[]): Promise<void>;
}

/**
 * How long entries gather before one send carries them all, and how many one message may carry: a
 * quarter of a second fills a message at a few hundred requests a second (each send, message and
 * consumer's INSERT is work the isolate's answers share), and keeps a row at most that much later.
 */
const LINGER_MS = 250;
const SEND_BATCH = 100;
/** A scheduled send older than this belongs to a request that is gone: the next entry schedules another. */
const STALE_SCHEDULE_MS = 5_000;
/** Tries of one send before its entries are written straight to Postgres instead. */
const SEND_TRIES = 3;
/** Entries held at most (a send that never comes): beyond this the oldest are written straight away. */
const MAX_PENDING = 1000;

/**
 * The Cloudflare Queue producer of one isolate: entries of concurrent requests gather for LINGER_MS
 * and leave together as one message (a send per request cost a quarter of a small route's
 * throughput, and a message per entry as many queue operations as requests).
 * The request that finds no send scheduled schedules one and keeps it in its `waitUntil`, with its
 * own database as the fallback: a send that fails SEND_TRIES times is written there directly, so
 * no entry waits on a request that may never come.
 */
class BatchingProducer {
  private pending: UsageEntry[] = [];
  private scheduledAt: number | null = null;

  constructor(private readonly queue: Queue<UsageMessage>) {}

  record(entry: UsageEntry, fallback: UsageStore): Promise<void> {
    this.pending.push(entry);
    // A monotonic timer: this is scheduling, not a business decision (those read the clock).
    const now = performance.now();
    const live = this.scheduledAt !== null && now - this.scheduledAt < STALE_SCHEDULE_MS;
    if (live && this.pending.length < MAX_PENDING) return Promise.resolve();
    this.scheduledAt = now;
    return this.sendSoon(fallback);
  }

  private async sendSoon(fallback: UsageStore): Promise<void> {
    await sleep(LINGER_MS);
    // Taken and unscheduled in one step: an entry that comes during the send schedules the next one.
    const taken = this.pending;
    this.pending = [];
    this.scheduledAt = null;
    // Keyless requests leave as counts, with the first message (one id per send: sent twice, counted once).
    const { keyed, counts } = splitAnonymous(taken, crypto.randomUUID());
    const chunks: UsageEntry[][] = [];
    for (let i = 0; i < keyed.length; i += SEND_BATCH) chunks.push(keyed.slice(i, i + SEND_BATCH));
    if (chunks.length === 0 && counts.length > 0) chunks.push([]);
    for (const [n, chunk] of chunks.entries()) await this.send(chunk, n === 0 ? counts : [], fallback);
  }

  private async send(chunk: UsageEntry[], counts: AnonymousCount[], fallback: UsageStore): Promise<void> {
    const message: UsageMessage = counts.length ? { entries: chunk, anonymous: counts } : { entries: chunk };
    for (let attempt = 1; attempt <= SEND_TRIES; attempt++) {
      try {
        await this.queue.send(message);
        return;
      } catch (err) {
        console.warn("usage entries not queued", chunk.length, `try ${attempt}`, String(err));
        if (attempt < SEND_TRIES) await sleep(200 * attempt);
      }
    }
    await fallback.write(chunk, counts);
  }
}

const producers = new WeakMap<Queue<UsageMessage>, BatchingProducer>();

/** The Cloudflare Queue producer (one per isolate and binding), with the request's own database as fallback. */
export function queueSink(queue: Queue<UsageMessage>, fallback: UsageStore): UsageSink {
  let producer = producers.get(queue);
  if (!producer) {
    producer = new BatchingProducer(queue);
    producers.set(queue, producer);
  }
  const p = producer;
  return { record: (entry) => p.record(entry, fallback) };
}

/**
 * No queue bound: the entry is written at once (one INSERT per request; a keyless request's count
 * under its own id). Also the queue's fallback. A failure is logged, never the request's.
 */
export function directSink(db: () => Db | null): UsageSink & UsageStore {
  const write = async (entries: readonly UsageEntry[], counts: readonly AnonymousCount[]) => {
    const handle = db();
    if (!handle) return;
    try {
      if (entries.length) await insertUsageLogs(handle, entries);
      if (counts.length) await insertAnonymousCounts(handle, counts);
    } catch (err) {
      console.warn("usage not written", entries.length, counts.length, String(err));
    }
  };
  return {
    write,
    record: (entry) => {
      const { keyed, counts } = splitAnonymous([entry], entry.id);
      return write(keyed, counts);
    },
  };
}
