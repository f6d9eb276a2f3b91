import { createApp } from "./app";
import { runScheduled } from "./cron";
import { consumeImport, IMPORT_QUEUE_NAME } from "./services/catalogue/imports/consume-import";
import { consumeRefresh, REFRESH_QUEUE_NAME } from "./services/catalogue/refresh/consume-refresh";
import { consumeFxBackfill, FX_QUEUE_NAME } from "./services/fx/backfill";
import { consumeScreenRuns, SCREEN_QUEUE_NAME } from "./services/technical/screen-runs";
import { consumeUsage } from "./services/usage/consume-usage";
import { runWork } from "./work";

export { KeyMeter } from "../durable-objects/key-meter";
export { ProviderPacer } from "../durable-objects/provider-pacer";
export { StreamRegistry } from "../durable-objects/stream-registry";
export { TickerStream } from "../durable-objects/ticker-stream";

const app = createApp();

export default {
  fetch: app.fetch,
  /** Cron Triggers: the jobs of each trigger (src/cron.ts). */
  scheduled: async (controller, env, ctx) => {
    ctx.waitUntil(runScheduled(controller.cron, env));
  },
  /** The queues' consumers: the catalogue refresh's listings, the bulk import's lines, queued screens' shares, the FX history's windows, batches of usage-log entries. */
  queue: async (batch, env, _ctx) =>
    batch.queue === REFRESH_QUEUE_NAME
      ? consumeRefresh(batch, env, runWork(env))
      : batch.queue === IMPORT_QUEUE_NAME
        ? consumeImport(batch, env, runWork(env))
        : batch.queue === SCREEN_QUEUE_NAME
          ? consumeScreenRuns(batch, runWork(env))
          : batch.queue === FX_QUEUE_NAME
            ? consumeFxBackfill(batch, runWork(env))
            : consumeUsage(batch, runWork(env)),
} satisfies ExportedHandler<Env>;
