import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import { storableText } from "../db/text";
import type { UsageEntry } from "../domain/usage";
import type { AppEnv } from "../routes/env";

/**
 * Times the request, then hands its usage entry to the usage sink (the queue) and closes the
 * request's database pool after the answer has gone (`waitUntil`), so logging never slows or fails
 * the request.
 */
export const usageLog = createMiddleware<AppEnv>(async (c, next) => {
  const deps = c.get("deps");
  const started = deps.clock.now().getTime();
  await next();
  const template = routePath(c, -1);
  const tickerParam = template.includes(":ticker") ? c.req.param("ticker") : undefined;
  const entry: UsageEntry = {
    id: c.get("requestId"),
    method: c.req.method,
    route: template === "*" || template === "/*" ? "(unmatched)" : template,
    ticker: tickerParam ? storableText(tickerParam.toUpperCase(), 32) : null,
    keyKind: c.get("keyKind"),
    status: c.res.status,
    latencyMs: deps.clock.now().getTime() - started,
    createdAt: new Date(started),
  };
  const after = deps.usage
    .record(entry)
    .catch((err: unknown) => console.warn("usage entry not recorded", entry.route, String(err)))
    .finally(() => deps.close());
  try {
    c.executionCtx.waitUntil(after);
  } catch {
    // No execution context (app.request in a plain unit test): the promise still settles on its own.
  }
});
