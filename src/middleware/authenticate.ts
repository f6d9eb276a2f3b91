import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import { accessOf, classifyKey, extractKey } from "../auth";
import type { AppEnv } from "../deps";
import { ServiceError } from "../domain/errors";
import { spendRequest } from "../rate-limit";

/**
 * Applies ROUTE_ACCESS: 401 for a missing or unknown key, 403 for a read-only key on a full-access
 * route, then counts the request against the key's rate (429 past it).
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const access = accessOf(c.req.method, routePath(c, -1));
  if (access === "public") return next();
  const key = extractKey(c.req.raw.headers);
  const kind = await classifyKey(key, c.get("deps").config);
  if (kind === null || key === undefined) {
    throw new ServiceError(
      "UNAUTHORIZED",
      key ? "Unknown API key" : "An API key is required: send it as X-API-KEY or Authorization: Bearer <key>",
    );
  }
  c.set("keyKind", kind);
  if (access === "full" && kind !== "full") {
    throw new ServiceError(
      "FORBIDDEN",
      "This route changes data and needs a full-access key; a read-only key was given",
    );
  }
  await spendRequest(c.env?.KEY_RATE_LIMITER, key);
  return next();
});
