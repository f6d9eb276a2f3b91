import { isFxWindow } from "../../domain/fx/coverage";
import type { RunWork } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { fetchWindow } from "./store-rates";

export const FX_QUEUE_NAME = "fx-backfill";

/** Seconds before a window whose fetch failed is delivered again (the ECB down, say). */
const RETRY_DELAY_SECONDS = 300;

/**
 * The backfill's consumer: each message is a year's window, fetched from the ECB and stored. A
 * provider failure retries the message later; a redelivered window rewrites nothing.
 */
export async function consumeFxBackfill(batch: MessageBatch<unknown>, run: RunWork): Promise<void> {
  await run(async (ctx) => {
    for (const m of batch.messages) {
      if (!isFxWindow(m.body)) {
        console.warn("fx backfill: a message that is not a window, dropped", JSON.stringify(m.body));
        m.ack();
        continue;
      }
      try {
        const { written } = await fetchWindow(ctx, m.body);
        console.log("fx backfill", m.body.year, m.body.from, m.body.to, `${written} rate(s) written`);
        m.ack();
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        console.warn("fx backfill", m.body.year, err.message);
        m.retry({ delaySeconds: RETRY_DELAY_SECONDS });
      }
    }
  });
}
