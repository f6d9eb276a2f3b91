import { buildDeps } from "../../deps";
import type { Bindings } from "../../env";
import { writeUsageBatch } from "./record-usage";

/** Delay before a failed batch comes back (the database may be restarting). */
const RETRY_DELAY_SECONDS = 10;

/**
 * The usage queue's consumer: one batch (up to 100 entries) in one INSERT. If the database fails,
 * the whole batch is retried after a delay; after the queue's max_retries it goes to the
 * dead-letter queue (wrangler.toml), so no entry is lost silently.
 */
export async function consumeUsage(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  const deps = buildDeps(env, { deadlineMs: Number.POSITIVE_INFINITY });
  try {
    await writeUsageBatch(
      deps.db.db,
      batch.messages.map((m) => m.body),
    );
    batch.ackAll();
  } catch (err) {
    console.warn("usage batch not written, retrying", batch.messages.length, String(err));
    batch.retryAll({ delaySeconds: RETRY_DELAY_SECONDS });
  } finally {
    await deps.db.close();
  }
}
