import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { getCacheStats } from "../../services/cache/get-stats";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { CacheStatsSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/cache/stats",
    "x-access": "any",
    tags: ["Cache administration"],
    description:
      "An overview of the cache: its backend (`upstash`, or `memory` for the in-isolate fallback used when Upstash is not configured), the Redis version and memory where known, the key count, the lifetime in seconds of every cache category, and the cached EOD answers with their tickers (keys `eod:*`, which also hold /ticker/{symbol}/history answers; at most 10,000 keys are inspected). With the memory backend the figures describe only the instance that answers. Any key.",
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
