/** The cache every service uses; Upstash in production, an in-isolate LRU when Upstash is not configured. */
export interface Cache {
  readonly backend: "upstash" | "memory";
  /** A failing backend answers null: a cache problem never breaks an answer. */
  get<T>(key: string): Promise<T | null>;
  /** Failures are logged and swallowed for the same reason. */
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Sets the key only when it is absent, atomically (Redis SET NX): a lock across isolates. Answers
   * whether it was set; a failing backend answers true (the work runs rather than never).
   */
  setIfAbsent(key: string, value: unknown, ttlSeconds: number): Promise<boolean>;
  /** Deletes every key matching a glob (`eod:AAPL:*`) and answers how many went; SCAN, never KEYS. */
  deletePattern(pattern: string): Promise<number>;
  /** Keys matching a glob, at most `max`. */
  keys(pattern: string, max?: number): Promise<string[]>;
  /** Publishes on a channel; answers the number of receivers (0 where the backend has no channels). */
  publish(channel: string, message: unknown): Promise<number>;
  stats(): Promise<CacheStats>;
  /** Whether the backend answers now. */
  ping(): Promise<boolean>;
}

export interface CacheStats {
  backend: "upstash" | "memory";
  version: string | null;
  keys: number;
  memory_used_bytes: number | null;
}

/** Glob (`*`, `?`) to a RegExp, for backends without native matching. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}
