import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../routes/env";

/** What the workspace's pages may send and read: the key headers, and how long to wait after a 429. */
const ALLOWED_HEADERS = "X-API-KEY, Authorization, Content-Type";
const EXPOSED_HEADERS = "Retry-After, X-Refresh-Ignored";
/** Seconds a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE = 600;

/**
 * Cross-origin access for the workspace routes and the discovery files (spec Authentication 9): an
 * origin of WORKSPACE_ALLOWED_ORIGIN gets the CORS headers on every answer, errors included; a
 * preflight is answered 204 here, before any key is asked for (a browser sends none with it).
 * Another origin gets no CORS headers, so its page cannot read the answers. No
 * Access-Control-Allow-Credentials: keys travel in headers the page sets itself, never in cookies,
 * so a page has no ambient credential of the user's to borrow.
 */
export const workspaceCors = createMiddleware<AppEnv>(async (c, next) => {
  const origin = c.req.header("Origin");
  const allowed = origin !== undefined && c.get("deps").config.WORKSPACE_ALLOWED_ORIGIN.includes(origin.toLowerCase());
  if (c.req.method === "OPTIONS") {
    if (!allowed) return c.body(null, 204, { Vary: "Origin" });
    return c.body(null, 204, {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": "GET, OPTIONS",
      "Access-Control-Allow-Headers": ALLOWED_HEADERS,
      "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE),
      Vary: "Origin",
    });
  }
  await next();
  c.res.headers.append("Vary", "Origin");
  if (!allowed) return;
  c.res.headers.set("Access-Control-Allow-Origin", origin);
  c.res.headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
});
