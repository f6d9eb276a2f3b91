import { createApp } from "./app";
import { restoreSubscriptions } from "./services/realtime/restore";
import { consumeUsage } from "./services/usage/consume-usage";

export { StreamRegistry } from "../durable-objects/stream-registry";
export { TickerStream } from "../durable-objects/ticker-stream";

const app = createApp();

export default {
  fetch: app.fetch,
  /** Cron: streams of stored subscriptions come back after a deploy or an eviction. */
  scheduled: async (_controller, env, ctx) => {
    ctx.waitUntil(restoreSubscriptions(env));
  },
  /** The usage-log queue's consumer: batches of entries written to usage_logs. */
  queue: async (batch, env, _ctx) => consumeUsage(batch, env),
} satisfies ExportedHandler<Env>;
