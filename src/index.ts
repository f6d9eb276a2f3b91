import { createApp } from "./app";
import { restoreSubscriptions } from "./services/realtime/restore";

export { StreamRegistry } from "../durable-objects/stream-registry";
export { TickerStream } from "../durable-objects/ticker-stream";

const app = createApp();

export default {
  fetch: app.fetch,
  /** Cron: streams of stored subscriptions come back after a deploy or an eviction. */
  scheduled: async (_controller, env, ctx) => {
    ctx.waitUntil(restoreSubscriptions(env));
  },
} satisfies ExportedHandler<Env>;
