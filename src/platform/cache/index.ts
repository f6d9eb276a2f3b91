import type { Config } from "../../env";
import type { Cache } from "./cache";
import { isolateMemoryCache } from "./memory";
import { UpstashCache } from "./upstash";

export type { Cache, CacheStats } from "./cache";
export { cacheKeys, cacheTtls } from "./keys";

/** Upstash when both settings are present, else the in-isolate LRU. */
export function createCache(config: Config): Cache {
  if (config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN) {
    return new UpstashCache(config.UPSTASH_REDIS_REST_URL, config.UPSTASH_REDIS_REST_TOKEN);
  }
  return isolateMemoryCache(config.MEMORY_CACHE_MAX_ENTRIES);
}
