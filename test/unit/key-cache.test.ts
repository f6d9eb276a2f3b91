import { describe, expect, it } from "vitest";
import type { ApiKeyRow } from "../../src/db/repositories/api-keys";
import { KEY_CACHE_SECONDS, KEY_STALE_SECONDS, keyCache } from "../../src/platform/key-cache";

const row = (id: string): ApiKeyRow => ({
  id,
  name: id,
  kind: "read_only",
  hash: `hash-${id}`,
  prefix: "mds_0000",
  expiresAt: null,
  rateLimit: null,
  createdAt: new Date("2026-11-01T00:00:00Z"),
  lastUsedAt: null,
  revokedAt: null,
});

describe("the isolate's memory of managed keys", () => {
  it("keeps a read for 60 s, and what was read stands in for 15 minutes when asked", () => {
    keyCache.set("h-fresh", row("a"), 1_000, keyCache.begin());
    expect(keyCache.get("h-fresh", 1_000 + KEY_CACHE_SECONDS * 1000 - 1)?.row?.id).toBe("a");
    expect(keyCache.get("h-fresh", 1_000 + KEY_CACHE_SECONDS * 1000)).toBeUndefined();
    expect(keyCache.get("h-fresh", 1_000 + KEY_STALE_SECONDS * 1000 - 1, KEY_STALE_SECONDS)?.row?.id).toBe("a");
    expect(keyCache.get("h-fresh", 1_000 + KEY_STALE_SECONDS * 1000, KEY_STALE_SECONDS)).toBeUndefined();
  });

  it("does not keep a read that began before the key was forgotten here (a revocation racing a lookup)", () => {
    const begun = keyCache.begin();
    keyCache.forget("h-raced");
    keyCache.set("h-raced", row("b"), 2_000, begun);
    expect(keyCache.get("h-raced", 2_000)).toBeUndefined();
    // A read that began after the forgetting is kept.
    keyCache.set("h-raced", row("b"), 3_000, keyCache.begin());
    expect(keyCache.get("h-raced", 3_000)?.row?.id).toBe("b");
  });

  it("keeps made-up keys apart: a flood of them never pushes out a stored key", () => {
    keyCache.set("h-real", row("real"), 5_000, keyCache.begin());
    for (let i = 0; i < 12_000; i++) keyCache.set(`h-made-up-${i}`, null, 5_000, keyCache.begin());
    expect(keyCache.get("h-real", 5_000)?.row?.id).toBe("real");
    // The oldest made-up ones went; the newest are remembered as unknown.
    expect(keyCache.get("h-made-up-0", 5_000)).toBeUndefined();
    expect(keyCache.get("h-made-up-11999", 5_000)).toEqual({ row: null, readAt: 5_000 });
  });
});
