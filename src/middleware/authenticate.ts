import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { clientAddress, extractKey } from "../auth";
import { ServiceError } from "../domain/errors";
import { rateLimitHeaders, refusedWith, spendRequest } from "../platform/rate-limit";
import type { RouteAccess } from "../routes/access";
import type { AppEnv } from "../routes/env";
import { isCountedByMessage } from "../routes/mcp/counted-calls";
import { verifyKey } from "../services/keys/verify-key";
import { answeringRoute } from "./answering-route";
import { dropQuery } from "./drop-query";

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
  dropQuery(c, url, [QUERY_KEY_PARAM]);
  return key || undefined;
}

/** What a request without any key is told. */
export const MISSING_KEY_MESSAGE = `An API key is required: send it as X-API-KEY or Authorization: Bearer <key> (a read-only key may also come as ${QUERY_KEY_PARAM} in a GET's query)`;

/**
 * Applies the answering route's access (its `"x-access"`): 401 for a missing, unknown, expired or
 * revoked key, 403 for a read-only key on a full-access route or any key but the settings'
 * full-access ones on an admin route, then counts the request against the key's rate (429 past it)
 * and tells the count in the RateLimit headers. A GET may carry a read-only key as `api_token` in
 * its query; a full-access key there is refused.
 */
export const authenticate = (routes: RouteAccess) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const access = routes.of(c.req.method, answeringRoute(c));
    if (access === "public") return next();
    const deps = c.get("deps");
    const inHeaders = extractKey(c.req.raw.headers);
    const inQuery = takeQueryKey(c);
    const key = inHeaders ?? inQuery;
    const verified = await verifyKey(deps, key, clientAddress(c.req.raw.headers));
    if (verified === null) throw new ServiceError("UNAUTHORIZED", key ? "Unknown API key" : MISSING_KEY_MESSAGE);
    if ("refused" in verified) throw new ServiceError("UNAUTHORIZED", verified.refused);
    if (inHeaders === undefined && verified.kind !== "read_only") {
      throw new ServiceError(
        "UNAUTHORIZED",
        `A full-access key is never taken from the URL (${QUERY_KEY_PARAM}): send it as X-API-KEY or Authorization: Bearer <key>, and revoke it if the URL was shared`,
      );
    }
    c.set("keyKind", verified.kind);
    deps.caller = { kind: verified.kind, fingerprint: verified.fingerprint, keyId: verified.id, admin: verified.admin };
    if (access === "full" && verified.kind !== "full") {
      throw new ServiceError(
        "FORBIDDEN",
        "This route changes data and needs a full-access key; a read-only key was given",
      );
    }
    if (access === "admin" && !verified.admin) {
      throw new ServiceError(
        "FORBIDDEN",
        "Managing keys needs a full-access key of the service's settings (SERVICE_API_KEYS); a managed or read-only key cannot",
      );
    }
    // An MCP message's API request: the message was counted when it arrived.
    if (isCountedByMessage(c.req.raw)) return next();
    const verdict = await spendRequest(
      deps.meters,
      verified.fingerprint,
      verified.rateLimit,
      deps.clock.now().getTime(),
    );
    if (!verdict) return next();
    const headers = rateLimitHeaders(verdict);
    // Set before the route runs, for the answers built on the context (errors included), and after it,
    // for an answer the route built itself.
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    if (!verdict.allowed) throw refusedWith(verdict);
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  });
