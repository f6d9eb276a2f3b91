import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import { storableText } from "../db/text";
import type { AppEnv } from "../deps";
import { recordUsage } from "../services/usage/record-usage";

/**
 * Times the request, then writes its usage row and closes the request's database pool after the
 * answer has gone (`waitUntil`), so logging never slows or fails the request.
 */
export const usageLog = createMiddleware<AppEnv>(async (c, next) => {
  const deps = c.get("deps");
  const started = deps.clock.now().getTime();
  await next();
  const template = routePath(c, -1);
  const tickerParam = template.includes(":ticker") ? c.req.param("ticker") : undefined;
  const entry = {
    method: c.req.method,
    route: template === "*" || template === "/*" ? "(unmatched)" : template,
    ticker: tickerParam ? storableText(tickerParam.toUpperCase(), 32) : null,
    keyKind: c.get("keyKind"),
    status: c.res.status,
    latencyMs: deps.clock.now().getTime() - started,
    createdAt: new Date(started),
  };
  const after = recordUsage({ ctx: deps, input: entry }).finally(() => deps.db.close());
  try {
    c.executionCtx.waitUntil(after);
  } catch {
    // No execution context (app.request in a plain unit test): the promise still settles on its own.
  }
});
