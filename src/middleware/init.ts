import { createMiddleware } from "hono/factory";
import { createCache } from "../cache";
import { DbHandle } from "../db/client";
import type { AppEnv } from "../deps";
import { loadConfig } from "../env";

/** Builds the request's dependencies (config parsed once per isolate, a lazy db, the cache) and a request id. */
export const init = createMiddleware<AppEnv>(async (c, next) => {
  const config = loadConfig(c.env ?? {});
  c.set("deps", { config, db: new DbHandle(config), cache: createCache(config) });
  const requestId = crypto.randomUUID();
  c.set("requestId", requestId);
  c.set("keyKind", "none");
  await next();
  c.header("X-Request-Id", requestId);
});
