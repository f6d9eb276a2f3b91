import type { ApiKeyRow } from "../db/repositories/api-keys";

/** How long an isolate trusts what it read of a managed key: a revoked key is refused within this. */
export const KEY_CACHE_SECONDS = 60;
/**
 * How long what was read may stand in while the database cannot be read: past it, a managed key is
 * refused with the database's error (a key revoked before the outage stays refused).
 */
export const KEY_STALE_SECONDS = 900;
/** Keys an isolate remembers at most, of each sort (stored keys, made-up keys): past it the oldest read goes. */
const MAX_ENTRIES = 10_000;

interface Entry {
  /** The stored key, or null for a key of the managed shape that is not stored. */
  row: ApiKeyRow | null;
  readAt: number;
}

/** A map of at most MAX_ENTRIES, the oldest set going first. */
class Bounded {
  private readonly entries = new Map<string, Entry>();
  get(hash: string): Entry | undefined {
    return this.entries.get(hash);
  }
  set(hash: string, entry: Entry): void {
    this.entries.delete(hash);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, entry);
  }
  delete(hash: string): void {
    this.entries.delete(hash);
  }
}

/**
 * What this isolate read of managed keys, by their hash: each key (and each made-up key of the
 * managed shape) is read from the database at most once per KEY_CACHE_SECONDS, so that a key is
 * verified at the edge without a round trip on almost every request. Stored keys and made-up ones
 * are kept apart, each bounded: a flood of made-up keys costs one indexed read each and pushes out
 * only other made-up keys, never a stored key, nor the memory. A read that began before a key was
 * forgotten here (revoked, changed) is not kept, so a revocation holds at once in its isolate.
 * One instance per isolate, declared once here.
 */
class KeyCache {
  private readonly stored = new Bounded();
  private readonly unknown = new Bounded();
  /** Counts forgettings; `forgotten` has the count at each key's last one. */
  private epoch = 0;
  private readonly forgotten = new Map<string, number>();

  /** The entry of `hash` if read within `maxAgeSeconds` of `nowMs`. */
  get(hash: string, nowMs: number, maxAgeSeconds = KEY_CACHE_SECONDS): Entry | undefined {
    const entry = this.stored.get(hash) ?? this.unknown.get(hash);
    if (!entry || nowMs - entry.readAt >= maxAgeSeconds * 1000) return undefined;
    return entry;
  }

  /** Where a read begins: hand it back to `set`, which keeps the read only if the key was not forgotten since. */
  begin(): number {
    return this.epoch;
  }

  set(hash: string, row: ApiKeyRow | null, nowMs: number, begun: number): void {
    if ((this.forgotten.get(hash) ?? -1) >= begun) return;
    (row ? this.stored : this.unknown).set(hash, { row, readAt: nowMs });
    if (row) this.unknown.delete(hash);
  }

  /** Forgets a key (revoked or changed here): this isolate reads it again at its next use. */
  forget(hash: string): void {
    this.stored.delete(hash);
    this.unknown.delete(hash);
    this.forgotten.set(hash, this.epoch);
    this.epoch += 1;
  }
}

export const keyCache = new KeyCache();
