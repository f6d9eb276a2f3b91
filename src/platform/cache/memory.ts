import { LRUCache } from "lru-cache";
import { type Cache, type CacheStats, globToRegExp } from "./cache";

/** In-isolate LRU: per-isolate, lost on eviction, no channels. The fallback when Upstash is not configured. */
export class MemoryCache implements Cache {
  readonly backend = "memory" as const;
  private readonly lru: LRUCache<string, { value: unknown }>;

  constructor(maxEntries: number) {
    this.lru = new LRUCache({ max: maxEntries, ttlAutopurge: false });
  }

  async get<T>(key: string): Promise<T | null> {
    const hit = this.lru.get(key);
    return hit ? (hit.value as T) : null;
  }

  /**
   * Stored as a deep-frozen JSON copy: what a reader gets is what Redis would give (plain JSON
   * data), it is shared without copying on every read, and a caller that tried to mutate a cached
   * answer would throw instead of changing it for everyone.
   */
  async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    this.lru.set(key, { value: deepFreeze(JSON.parse(JSON.stringify(value)) as unknown) }, { ttl: ttlSeconds * 1000 });
  }

  async delete(key: string): Promise<void> {
    this.lru.delete(key);
  }

  async setIfAbsent(key: string, value: unknown, ttlSeconds: number): Promise<boolean> {
    // Synchronous between the check and the set: nothing else runs in the isolate in between.
    if (this.lru.has(key)) return false;
    await this.set(key, value, ttlSeconds);
    return true;
  }

  async deletePattern(pattern: string): Promise<number> {
    const matching = await this.keys(pattern, Number.POSITIVE_INFINITY);
    for (const k of matching) this.lru.delete(k);
    return matching.length;
  }

  async keys(pattern: string, max = 1000): Promise<string[]> {
    const re = globToRegExp(pattern);
    const out: string[] = [];
    for (const k of this.lru.keys()) {
      if (out.length >= max) break;
      // keys() also yields stale entries; has() drops them.
      if (re.test(k) && this.lru.has(k)) out.push(k);
    }
    return out;
  }

  async publish(): Promise<number> {
    return 0;
  }

  async stats(): Promise<CacheStats> {
    this.lru.purgeStale();
    return { backend: "memory", version: null, keys: this.lru.size, memory_used_bytes: null };
  }

  async ping(): Promise<boolean> {
    return true;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

let shared: MemoryCache | undefined;

/** One LRU per isolate, shared by its requests (that is what makes it a cache). */
export function isolateMemoryCache(maxEntries: number): MemoryCache {
  shared ??= new MemoryCache(maxEntries);
  return shared;
}
