import type { Cache } from "./cache";
import type { Keeping } from "./keeping";

/** Where a read-through reads, how it writes after the answer, and where it says whether it kept the answer (the work's Deps). */
export interface RememberDeps {
  cache: Cache;
  defer(work: Promise<unknown>): void;
  keeping: Keeping;
}

export interface RememberOptions<T> {
  /** Whether a freshly loaded value is cached (default: always); e.g. not a partial answer. */
  shouldCache?: (value: T) => boolean;
  /** What is cached for a freshly loaded value, when it differs from what this call answers. */
  cacheAs?: (value: T) => T;

  /** Off: always load, never cache (a setting such as TECHNICAL_CACHE_ENABLED). */
  enabled?: boolean;
}

/**
 * Read-through caching: the cached value under `key`, else `load()`'s, cached for `ttlSeconds`
 * after the answer (the write is no part of the answer's latency). `hit` says which. A cache that
 * fails reads as a miss and writes nothing (the Cache contract).
 * @example const { value } = await remember(ctx, cacheKeys.screener(v), 900, () => screen(ctx));
 */
export async function remember<T>(
  { cache, defer, keeping }: RememberDeps,
  key: string,
  ttlSeconds: number,
  load: () => Promise<T>,
  opts: RememberOptions<T> = {},
): Promise<{ value: T; hit: boolean }> {
  if (opts.enabled === false) {
    keeping.notKept();
    return { value: await load(), hit: false };
  }
  const cached = await cache.get<T>(key);
  if (cached !== null) {
    keeping.kept(ttlSeconds);
    return { value: cached, hit: true };
  }
  const value = await load();
  if (opts.shouldCache?.(value) ?? true) {
    const kept = opts.cacheAs ? opts.cacheAs(value) : value;
    // A copy elsewhere (the edge's) would be this answer: it may be only when it is what is cached.
    if (kept === value) keeping.kept(ttlSeconds);
    else keeping.notKept();
    defer(cache.set(key, kept, ttlSeconds));
  } else keeping.notKept();
  return { value, hit: false };
}
