import { Redis } from "@upstash/redis/cloudflare";
import type { Cache, CacheStats } from "./cache";

const SCAN_COUNT = 500;

/** Upstash Redis over its REST protocol. Reads and writes degrade to a miss on failure. */
export class UpstashCache implements Cache {
  readonly backend = "upstash" as const;
  private readonly redis: Redis;

  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {
    // No retries: a cache that is down must cost one failed call, not five. Commands issued in the
    // same turn of the event loop (a request's independent reads) go as one pipeline: one round trip.
    this.redis = new Redis({ url, token, retry: false, automaticDeserialization: false, enableAutoPipelining: true });
  }

  async get<T>(key: string): Promise<T | null> {
    try {
      const raw = await this.redis.get<string>(key);
      return raw === null ? null : (JSON.parse(raw) as T);
    } catch (err) {
      console.warn("cache get failed", key, String(err));
      return null;
    }
  }

  async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    try {
      await this.redis.set(key, JSON.stringify(value), { ex: Math.max(1, Math.round(ttlSeconds)) });
    } catch (err) {
      console.warn("cache set failed", key, String(err));
    }
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(key);
  }

  async setIfAbsent(key: string, value: unknown, ttlSeconds: number): Promise<boolean> {
    try {
      const set = await this.redis.set(key, JSON.stringify(value), {
        nx: true,
        ex: Math.max(1, Math.round(ttlSeconds)),
      });
      return set === "OK";
    } catch (err) {
      console.warn("cache setIfAbsent failed", key, String(err));
      return true;
    }
  }

  async deletePattern(pattern: string): Promise<number> {
    let deleted = 0;
    for await (const keys of this.scan(pattern)) if (keys.length > 0) deleted += await this.redis.del(...keys);
    return deleted;
  }

  async keys(pattern: string, max = 1000): Promise<string[]> {
    const out = new Set<string>();
    for await (const keys of this.scan(pattern)) {
      for (const k of keys) if (out.size < max) out.add(k);
      if (out.size >= max) break;
    }
    return [...out];
  }

  /** Each SCAN page of keys matching a glob, until the cursor comes back to 0 (never KEYS). */
  private async *scan(pattern: string): AsyncGenerator<string[]> {
    let cursor = "0";
    do {
      const [next, keys] = await this.redis.scan(cursor, { match: pattern, count: SCAN_COUNT });
      yield keys;
      cursor = String(next);
    } while (cursor !== "0");
  }

  async publish(channel: string, message: unknown): Promise<number> {
    return this.redis.publish(channel, JSON.stringify(message));
  }

  async stats(): Promise<CacheStats> {
    const [keys, info] = await Promise.all([this.redis.dbsize(), this.command<string>(["INFO", "server", "memory"])]);
    const field = (name: string) => info?.match(new RegExp(`^${name}:(.*)$`, "m"))?.[1]?.trim() ?? null;
    const memory = field("used_memory");
    return {
      backend: "upstash",
      version: field("redis_version"),
      keys,
      memory_used_bytes: memory === null ? null : Number(memory),
    };
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === "PONG";
    } catch {
      return false;
    }
  }

  /** A raw REST command for what the client has no method for (INFO); null when the backend refuses it. */
  private async command<T>(args: string[]): Promise<T | null> {
    try {
      const res = await fetch(this.url, {
        method: "POST",
        headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
        body: JSON.stringify(args),
      });
      if (!res.ok) return null;
      const body = (await res.json()) as { result?: T };
      return body.result ?? null;
    } catch {
      return null;
    }
  }
}
