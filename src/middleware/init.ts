import { createMiddleware } from "hono/factory";
import { type AppEnv, buildDeps, type DepsOptions } from "../deps";

/** Builds the request's dependencies (see `buildDeps`) and a request id. */
export function init(opts: DepsOptions = {}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set("deps", buildDeps(c.env ?? {}, opts));
    const requestId = crypto.randomUUID();
    c.set("requestId", requestId);
    c.set("keyKind", "none");
    await next();
    c.header("X-Request-Id", requestId);
  });
}
