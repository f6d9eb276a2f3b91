import type { CacheStats } from "../../platform/cache";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";

/** Keys inspected to list cached tickers: enough for any catalogue, bounded for a huge cache. */
const MAX_KEYS = 10_000;

export interface CacheOverview {
  stats: CacheStats;
  ttls: ReturnType<typeof cacheTtls>;
  eodEntries: number;
  cachedTickers: string[];
}

/** GET /cache/stats: the backend's version and memory, each category's lifetime, and which tickers have cached EOD answers. */
export async function getCacheStats({ ctx }: { ctx: Context }): Promise<CacheOverview> {
  const [stats, keys] = await Promise.all([ctx.cache.stats(), ctx.cache.keys(cacheKeys.eodAll(), MAX_KEYS)]);
  const tickers = new Set(keys.map((k) => k.split(":")[1] ?? "").filter((t) => t.length > 0));
  return { stats, ttls: cacheTtls(ctx.config), eodEntries: keys.length, cachedTickers: [...tickers].sort() };
}
