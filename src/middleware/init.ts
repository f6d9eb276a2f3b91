import { createMiddleware } from "hono/factory";
import { type AppEnv, buildDeps, type DepsOptions } from "../deps";

/** Builds the request's dependencies (see `buildDeps`) and a request id. */
export function init(opts: DepsOptions = {}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set("deps", buildDeps(c.env ?? {}, opts));
    const requestId = crypto.randomUUID();
    c.set("requestId", requestId);
    c.set("keyKind", "none");
    // Set before the answer exists, it is part of the answer as Hono builds it; set after, it would
    // cost a copy of the finished response. A handler's own Response (the WebSocket's 101) gets it after.
    c.header("X-Request-Id", requestId);
    await next();
    if (!c.res.headers.has("X-Request-Id")) c.header("X-Request-Id", requestId);
  });
}
