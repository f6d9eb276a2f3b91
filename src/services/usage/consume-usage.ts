import { backoff } from "../../domain/backoff";
import type { RunWork } from "../../platform/context";
import { writeUsageBatch } from "./write-usage-batch";

/** Delay before a failed batch comes back: doubling from 10 s to 30 minutes, so ten tries span about 1 h 40 min of outage. */
export const usageRetryDelaySeconds = (attempts: number) => backoff(attempts, { first: 10, factor: 2, cap: 1800 });

/**
 * The usage queue's consumer: a batch of up to 10 messages, each up to 100 entries (wrangler.toml),
 * written in one INSERT (up to 1,000 rows). If the database fails, the whole batch is retried, later each time;
 * after the queue's max_retries (ten tries over about 1 h 40 min) it goes to the dead-letter queue
 * `usage-logs-dead` (wrangler.toml), kept there for replay.
 */
export async function consumeUsage(batch: MessageBatch<unknown>, run: RunWork): Promise<void> {
  try {
    await run((ctx) =>
      writeUsageBatch(
        ctx.db,
        batch.messages.map((m) => m.body),
      ),
    );
    batch.ackAll();
  } catch (err) {
    console.warn("usage batch not written, retrying", batch.messages.length, String(err));
    const attempts = Math.max(...batch.messages.map((m) => m.attempts), 1);
    batch.retryAll({ delaySeconds: usageRetryDelaySeconds(attempts) });
  }
}
