import type { Cache } from "./cache";

export interface RememberOptions<T> {
  /** Whether a freshly loaded value is cached (default: always); e.g. not a partial answer. */
  shouldCache?: (value: T) => boolean;
  /** What is cached for a freshly loaded value, when it differs from what this call answers. */
  cacheAs?: (value: T) => T;

  /** Off: always load, never cache (a setting such as TECHNICAL_CACHE_ENABLED). */
  enabled?: boolean;
}

/**
 * Read-through caching: the cached value under `key`, else `load()`'s, cached for `ttlSeconds`.
 * `hit` says which. A cache that fails reads as a miss and writes nothing (the Cache contract).
 * @example const { value } = await remember(ctx.cache, cacheKeys.screener(v), 900, () => screen(ctx));
 */
export async function remember<T>(
  cache: Cache,
  key: string,
  ttlSeconds: number,
  load: () => Promise<T>,
  opts: RememberOptions<T> = {},
): Promise<{ value: T; hit: boolean }> {
  if (opts.enabled === false) return { value: await load(), hit: false };
  const cached = await cache.get<T>(key);
  if (cached !== null) return { value: cached, hit: true };
  const value = await load();
  if (opts.shouldCache?.(value) ?? true) await cache.set(key, opts.cacheAs ? opts.cacheAs(value) : value, ttlSeconds);
  return { value, hit: false };
}
