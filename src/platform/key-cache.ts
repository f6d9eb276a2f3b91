import type { ApiKeyRow } from "../db/repositories/api-keys";

/** How long an isolate trusts what it read of a managed key: a revoked key is refused within this. */
export const KEY_CACHE_SECONDS = 60;
/** Keys an isolate remembers at most (known or not): past it the least recently read goes. */
const MAX_ENTRIES = 10_000;

interface Entry {
  /** The stored key, or null for a key of the managed shape that is not stored. */
  row: ApiKeyRow | null;
  readAt: number;
}

/**
 * What this isolate read of managed keys, by their hash: each key (and each unknown key of the
 * managed shape) is read from the database at most once per KEY_CACHE_SECONDS, so that a key is
 * verified at the edge without a round trip on almost every request. Bounded: an attacker's stream of
 * made-up keys costs one indexed read each and pushes out the oldest entries, never the memory.
 * One instance per isolate, declared once here.
 */
class KeyCache {
  private readonly entries = new Map<string, Entry>();

  /** The entry of `hash` if read within KEY_CACHE_SECONDS of `nowMs`; a stale one with `stale`. */
  get(hash: string, nowMs: number, opts: { stale?: boolean } = {}): Entry | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (!opts.stale && nowMs - entry.readAt >= KEY_CACHE_SECONDS * 1000) return undefined;
    return entry;
  }

  set(hash: string, row: ApiKeyRow | null, nowMs: number): void {
    this.entries.delete(hash);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { row, readAt: nowMs });
  }

  /** Forgets a key (revoked or changed here): this isolate reads it again at its next use. */
  forget(hash: string): void {
    this.entries.delete(hash);
  }
}

export const keyCache = new KeyCache();
