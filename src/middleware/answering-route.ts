import type { Context } from "hono";
import { matchedRoutes } from "hono/route";

/**
 * The template of the route that answers the request (`/news/:ticker`), "" when none matched. Two
 * templates may match one path (`/news/feed`, `/news/:ticker`): the handler Hono runs is the first
 * registered, so the first matched route that is not a middleware (those are registered for every
 * method) is the one, never the last.
 */
export function answeringRoute(c: Context): string {
  return matchedRoutes(c).find((r) => r.method !== "ALL")?.path ?? "";
}
