import { exports } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";

describe("GET /health", () => {
  it("answers every field of the spec without a key", async () => {
    const res = await exports.default.fetch("http://svc/health");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown> & {
      cache: { enabled: boolean; status: string; ttl_seconds: Record<string, number> };
    };
    expect(body.status).toBe("ok");
    expect(body.service).toBe("market-data-service");
    expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(body.delayed_provider_available).toBe(true);
    expect(body.providers).toEqual({ loaded: 2, unavailable: [] });
    expect(body.cache.enabled).toBe(true);
    expect(body.cache.status).toBe(
      inject("redisBacked") ? "connected" : "memory (in-isolate LRU; Upstash not configured)",
    );
    expect(body.cache.ttl_seconds).toMatchObject({
      eod: 86400,
      fundamentals: 3600,
      news: 1800,
      screener: 900,
      quote: 60,
    });
  });
});
