import type { Context } from "hono";
import type { AppEnv } from "../routes/env";

/**
 * Takes query parameters out of the request, so that nothing after this point (the edge cache's
 * key, the route's validation) sees them: the one way a middleware rewrites the request's URL.
 */
export function dropQuery(c: Context<AppEnv>, url: URL, names: readonly string[]): void {
  for (const name of names) url.searchParams.delete(name);
  c.req.raw = new Request(url, c.req.raw);
}
