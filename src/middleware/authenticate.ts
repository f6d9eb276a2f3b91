import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import { accessOf, extractKey, identifyKey } from "../auth";
import { ServiceError } from "../domain/errors";
import { spendRequest } from "../platform/rate-limit";
import type { AppEnv } from "../routes/env";

/**
 * Applies ROUTE_ACCESS: 401 for a missing or unknown key, 403 for a read-only key on a full-access
 * route, then counts the request against the key's rate (429 past it).
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const access = accessOf(c.req.method, routePath(c, -1));
  if (access === "public") return next();
  const key = extractKey(c.req.raw.headers);
  const identity = await identifyKey(key, c.get("deps").config);
  if (identity === null) {
    throw new ServiceError(
      "UNAUTHORIZED",
      key ? "Unknown API key" : "An API key is required: send it as X-API-KEY or Authorization: Bearer <key>",
    );
  }
  c.set("keyKind", identity.kind);
  c.get("deps").caller = { kind: identity.kind, fingerprint: identity.fingerprint };
  if (access === "full" && identity.kind !== "full") {
    throw new ServiceError(
      "FORBIDDEN",
      "This route changes data and needs a full-access key; a read-only key was given",
    );
  }
  await spendRequest(c.env?.KEY_RATE_LIMITER, identity.fingerprint);
  return next();
});
