import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import { accessOf, extractKey, identifyKey } from "../auth";
import { ServiceError } from "../domain/errors";
import { spendRequest } from "../platform/rate-limit";
import type { AppEnv } from "../routes/env";

/**
 * The query parameter a GET may carry a read-only key in (as EODHD's `api_token`), for clients that
 * cannot set headers: a spreadsheet's web query, a browser's address bar. Never a full-access key:
 * URLs end up in logs, histories and shared documents.
 */
export const QUERY_KEY_PARAM = "api_token";

/**
 * The key in a GET's query, taken out of the request so that nothing after the key check (the edge
 * cache's key, a route) sees it; undefined when there is none.
 */
function takeQueryKey(c: Context<AppEnv>): string | undefined {
  if (c.req.method !== "GET" || !c.req.url.includes(`${QUERY_KEY_PARAM}=`)) return undefined;
  const url = new URL(c.req.url);
  const key = url.searchParams.get(QUERY_KEY_PARAM)?.trim();
  url.searchParams.delete(QUERY_KEY_PARAM);
  c.req.raw = new Request(url, c.req.raw);
  return key || undefined;
}

/**
 * Applies ROUTE_ACCESS: 401 for a missing or unknown key, 403 for a read-only key on a full-access
 * route, then counts the request against the key's rate (429 past it). A GET may carry a read-only
 * key as `api_token` in its query; a full-access key there is refused.
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const access = accessOf(c.req.method, routePath(c, -1));
  if (access === "public") return next();
  const inHeaders = extractKey(c.req.raw.headers);
  const inQuery = takeQueryKey(c);
  const key = inHeaders ?? inQuery;
  const identity = await identifyKey(key, c.get("deps").config);
  if (identity === null) {
    throw new ServiceError(
      "UNAUTHORIZED",
      key
        ? "Unknown API key"
        : `An API key is required: send it as X-API-KEY or Authorization: Bearer <key> (a read-only key may also come as ${QUERY_KEY_PARAM} in a GET's query)`,
    );
  }
  if (inHeaders === undefined && identity.kind !== "read_only") {
    throw new ServiceError(
      "UNAUTHORIZED",
      `A full-access key is never taken from the URL (${QUERY_KEY_PARAM}): send it as X-API-KEY or Authorization: Bearer <key>, and revoke it if the URL was shared`,
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
