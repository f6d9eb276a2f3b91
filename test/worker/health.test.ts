import { describe, expect, inject, it } from "vitest";
import type { Health } from "../../src/routes/health/schema";
import { call } from "../helpers/worker-http";

describe("GET /health", () => {
  it("answers every field of the spec without a key", async () => {
    const { status, body } = await call<Health>("/health", { key: null });
    expect(status).toBe(200);
    expect(body.status).toBe("ok");
    expect(body.service).toBe("market-data-service");
    expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(body.delayed_provider_available).toBe(true);
    // No provider called yet in this isolate: nothing to tell of their calls.
    // Every provider of the registry: delayed, stream, the two scraped pages, EDGAR, the macro provider, the ECB, seven news providers.
    expect(body.providers).toEqual({ loaded: 14, unavailable: [], calls: {} });
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
      dcf: 21600,
      macro: 21600,
    });
  });
});
