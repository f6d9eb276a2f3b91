import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCache } from "../../src/platform/cache/memory";
import { UpstashCache } from "../../src/platform/cache/upstash";
import { type RedisBridge, startRedisBridge } from "../../tools/cache/redis-bridge";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("MemoryCache", () => {
  it("stores JSON copies, expires entries and deletes by pattern", async () => {
    const cache = new MemoryCache(100);
    const value = { bars: [1, 2] };
    await cache.set("eod:AAPL:1y", value, 60);
    value.bars.push(3);
    expect(await cache.get("eod:AAPL:1y")).toEqual({ bars: [1, 2] });
    await cache.set("eod:AAPL:5d", 1, 60);
    await cache.set("eod:MSFT:1y", 2, 60);
    await cache.set("quote:AAPL", 3, 60);
    expect((await cache.keys("eod:*")).sort()).toEqual(["eod:AAPL:1y", "eod:AAPL:5d", "eod:MSFT:1y"]);
    expect(await cache.deletePattern("eod:AAPL:*")).toBe(2);
    expect(await cache.get("eod:MSFT:1y")).toBe(2);
    expect(await cache.get("quote:AAPL")).toBe(3);
    await cache.set("short", "x", 0.05);
    await sleep(80);
    expect(await cache.get("short")).toBeNull();
    expect((await cache.stats()).keys).toBe(2);
  });

  it("sets a key only when it is absent, until it expires", async () => {
    const cache = new MemoryCache(100);
    const tries = await Promise.all([1, 2, 3].map((n) => cache.setIfAbsent("lock", n, 0.05)));
    expect(tries).toEqual([true, false, false]);
    expect(await cache.get("lock")).toBe(1);
    await sleep(80);
    expect(await cache.setIfAbsent("lock", 4, 60)).toBe(true);
  });
});

// Needs a real Redis: CI sets REDIS_URL; on a machine without one this block is reported as skipped.
describe.skipIf(!process.env.REDIS_URL)("UpstashCache through the Upstash REST bridge, against Redis", () => {
  let bridge: RedisBridge;
  let cache: UpstashCache;
  const ns = `t${Date.now()}${Math.floor(Math.random() * 1e6)}`;

  beforeAll(async () => {
    bridge = await startRedisBridge({ redisUrl: String(process.env.REDIS_URL), token: "unit-token" });
    cache = new UpstashCache(bridge.url, bridge.token);
  });
  afterAll(async () => {
    await cache.deletePattern(`${ns}:*`);
    await bridge.close();
  });

  it("gets and sets JSON with a lifetime", async () => {
    await cache.set(`${ns}:k`, { price: "189.25", list: [1, "é"] }, 60);
    expect(await cache.get(`${ns}:k`)).toEqual({ price: "189.25", list: [1, "é"] });
    expect(await cache.get(`${ns}:missing`)).toBeNull();
    await cache.set(`${ns}:short`, 1, 1);
    await sleep(1200);
    expect(await cache.get(`${ns}:short`)).toBeNull();
  });

  it("sets a key only when it is absent (SET NX), until it expires or is deleted", async () => {
    const tries = await Promise.all([1, 2, 3].map((n) => cache.setIfAbsent(`${ns}:lock`, n, 60)));
    expect(tries.filter(Boolean).length).toBe(1);
    expect(await cache.get(`${ns}:lock`)).toBe(tries.indexOf(true) + 1);
    await cache.delete(`${ns}:lock`);
    expect(await cache.setIfAbsent(`${ns}:lock`, 4, 1)).toBe(true);
    await sleep(1200);
    expect(await cache.setIfAbsent(`${ns}:lock`, 5, 60)).toBe(true);
  });

  it("deletes by pattern with SCAN across many pages, leaving other keys", async () => {
    for (let i = 0; i < 1200; i += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => cache.set(`${ns}:eod:AAPL:${i + j}`, i + j, 60)));
    }
    await cache.set(`${ns}:eod:MSFT:1y`, 1, 60);
    expect(await cache.deletePattern(`${ns}:eod:AAPL:*`)).toBe(1200);
    expect(await cache.keys(`${ns}:eod:*`)).toEqual([`${ns}:eod:MSFT:1y`]);
  });

  it("publishes on a channel that a Redis subscriber receives", async () => {
    const sub = createClient({ url: process.env.REDIS_URL });
    await sub.connect();
    const got: string[] = [];
    await sub.subscribe(`${ns}:price:AAPL`, (m) => got.push(m));
    try {
      expect(await cache.publish(`${ns}:price:AAPL`, { close: "189.25" })).toBe(1);
      for (let i = 0; i < 50 && got.length === 0; i++) await sleep(20);
      expect(got).toEqual([JSON.stringify({ close: "189.25" })]);
    } finally {
      await sub.quit();
    }
  });

  it("reports stats and answers ping; a wrong token is an unreachable cache, not an error", async () => {
    const stats = await cache.stats();
    expect(stats.backend).toBe("upstash");
    expect(stats.version).toMatch(/^\d+\.\d+/);
    expect(stats.keys).toBeGreaterThanOrEqual(0);
    expect(stats.memory_used_bytes).toBeGreaterThan(0);
    expect(await cache.ping()).toBe(true);
    const wrong = new UpstashCache(bridge.url, "wrong-token");
    expect(await wrong.ping()).toBe(false);
    expect(await wrong.get(`${ns}:k`)).toBeNull();
  });
});
