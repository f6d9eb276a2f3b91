import type { Context } from "../../platform/context";
import { builtOnce, type FlightScope } from "./single-flight";

/** How one answer is read through the cache. */
export interface ReadThrough<T> {
  key: string;
  ttlSeconds: number;
  /** Builds the answer (on a miss, or when `fresh`). */
  build: () => Promise<T>;
  /**
   * The listing whose answer this is, and the kind of work: one build per listing at a time in
   * every isolate; concurrent callers wait for it and take its answer (or the copy it cached).
   * Without it, concurrent misses build each their own.
   */
  lease?: { listingId: number; scope: FlightScope };
  /** Built again whatever is cached (`refresh`, `nocache`); still once at a time under a lease. */
  fresh?: boolean;
  /** The cache's switch (TECHNICAL_CACHE_ENABLED); off: built every time, nothing cached. */
  enabled?: boolean;
  /** Whether a built answer is cached (default: every one). */
  shouldCache?: (built: T) => boolean;
  /** What is cached in its place (the first /eod answer names its provider, its copy says `database`). */
  cacheAs?: (built: T) => T;
  /** The answer as served from the cache (marked as a cache hit). */
  asHit?: (cached: T) => T;
}

/**
 * The one read-through path of the services: the cached copy when there is one, else the answer
 * built (once per listing at a time under a lease) and cached. The answer may be kept elsewhere
 * (the edge cache, `Journal.keeping`) only when it is the cache's copy: a hit, or an answer cached as
 * it is, never one asked `fresh`. Without a lease the copy is written after the answer
 * (`Journal.defer`); under a lease before the lease ends, so that a caller that waited finds it; when
 * asked `fresh` before answering, so that the next read finds what this one answered.
 */
export async function readThrough<T>(ctx: Context, r: ReadThrough<T>): Promise<{ value: T; hit: boolean }> {
  const { cache } = ctx;
  const { keeping } = ctx.journal;
  // Asked fresh: no copy of this answer may serve another request.
  if (r.fresh) keeping.notKept();
  if (r.enabled === false) {
    keeping.notKept();
    return { value: await r.build(), hit: false };
  }
  const asHit = r.asHit ?? ((v: T) => v);
  const cached = async (): Promise<T | null> => {
    const v = await cache.get<T>(r.key);
    return v === null ? null : asHit(v);
  };
  const copyOf = (built: T): T | null => ((r.shouldCache?.(built) ?? true) ? (r.cacheAs?.(built) ?? built) : null);
  /** The answer, kept elsewhere only when it is the cache's copy (`copy`: what was or would be cached). */
  const kept = (value: T, hit: boolean, copy: T | null) => {
    if (hit || copy === value) keeping.kept(r.ttlSeconds);
    else keeping.notKept();
    return { value, hit };
  };

  if (!r.fresh) {
    const hit = await cached();
    if (hit !== null) return kept(hit, true, hit);
  }
  if (!r.lease) {
    const value = await r.build();
    const copy = copyOf(value);
    if (copy !== null) {
      const write = cache.set(r.key, copy, r.ttlSeconds);
      if (r.fresh) await write;
      else ctx.journal.defer(write);
    }
    return kept(value, false, copy);
  }
  let hitAfterWait = false;
  const value = await builtOnce(
    ctx,
    r.lease.listingId,
    r.lease.scope,
    async () => {
      if (r.fresh) return null;
      const v = await cached();
      hitAfterWait = v !== null;
      return v;
    },
    async () => {
      const built = await r.build();
      const copy = copyOf(built);
      if (copy !== null) await cache.set(r.key, copy, r.ttlSeconds);
      return built;
    },
  );
  return kept(value, hitAfterWait, hitAfterWait ? value : copyOf(value));
}
