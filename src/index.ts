import { createApp } from "./app";
import { runScheduled } from "./cron";
import { consumeUsage } from "./services/usage/consume-usage";

export { StreamRegistry } from "../durable-objects/stream-registry";
export { TickerStream } from "../durable-objects/ticker-stream";

const app = createApp();

export default {
  fetch: app.fetch,
  /** Cron Triggers: the jobs of each trigger (src/cron.ts). */
  scheduled: async (controller, env, ctx) => {
    ctx.waitUntil(runScheduled(controller.cron, env));
  },
  /** The usage-log queue's consumer: batches of entries written to usage_logs. */
  queue: async (batch, env, _ctx) => consumeUsage(batch, env),
} satisfies ExportedHandler<Env>;
