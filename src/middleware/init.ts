import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { buildDeps, type DepsOptions } from "../deps";
import type { AppEnv } from "../routes/env";

/** Keeps work going after the answer; a plain `app.request` in a unit test has no execution context. */
function keepAlive(c: Context<AppEnv>, work: Promise<unknown>): void {
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    // The promise still settles on its own.
  }
}

/** Builds the request's dependencies (see `buildDeps`) and a request id. */
export function init(opts: DepsOptions = {}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set("deps", buildDeps(c.env ?? {}, { waitUntil: (work) => keepAlive(c, work), ...opts }));
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
