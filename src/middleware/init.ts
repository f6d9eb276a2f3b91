import { createMiddleware } from "hono/factory";
import { createCache } from "../cache";
import { DbHandle } from "../db/client";
import type { AppEnv } from "../deps";
import { loadConfig } from "../env";
import { DelayedProviderClient } from "../providers/delayed/client";
import { StreamProviderClient } from "../providers/stream/client";
import type { RealtimeEnv } from "../durable-objects/env";
import { streamDirectory } from "../services/realtime/directory";

/** Builds the request's dependencies (config parsed once per isolate, a lazy db, the cache) and a request id. */
export const init = createMiddleware<AppEnv>(async (c, next) => {
  const config = loadConfig(c.env ?? {});
  const providers = {
    delayed: new DelayedProviderClient(config.DELAYED_PROVIDER_BASE_URL, config.PROVIDER_TIMEOUT_MS),
    stream: new StreamProviderClient(config.STREAM_PROVIDER_WS_URL, config.PROVIDER_TIMEOUT_MS * 2),
  };
  c.set("deps", { config, db: new DbHandle(config), cache: createCache(config), providers, streams: streamDirectory((c.env ?? {}) as Partial<RealtimeEnv>) });
  const requestId = crypto.randomUUID();
  c.set("requestId", requestId);
  c.set("keyKind", "none");
  await next();
  c.header("X-Request-Id", requestId);
});
