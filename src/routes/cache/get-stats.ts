import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { getCacheStats } from "../../services/cache/get-stats";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { CacheStatsSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/cache/stats",
    tags: ["Cache administration"],
    summary: "Cache version and memory, lifetime of each category, cached tickers",
    security: keyed,
    responses: {
      200: { description: "Cache statistics", content: { "application/json": { schema: CacheStatsSchema } } },
    },
  }),
);

export function registerGetCacheStats(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const o = await getCacheStats({ ctx: c.get("deps") });
    return c.json(
      {
        backend: o.stats.backend,
        version: o.stats.version,
        keys: o.stats.keys,
        memory_used_bytes: o.stats.memory_used_bytes,
        ttl_seconds: o.ttls,
        eod_entries: o.eodEntries,
        cached_tickers: o.cachedTickers,
      },
      200,
    );
  });
}
