import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ListingsAnswer } from "../../src/routes/catalogue/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

/** The suite's limiter of 3 requests a minute per key (vitest.config.ts), in place of the production one. */
const tight = { KEY_RATE_LIMITER: (env as unknown as { TIGHT_RATE_LIMITER: RateLimit }).TIGHT_RATE_LIMITER };

describe("rate limiting per key", () => {
  it("answers 429 with Retry-After once a key has spent its requests, and counts each key apart", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await call<ListingsAnswer>("/listings?ticker=AAPL", { env: tight })).status).toBe(200);
    }
    const refused = await call<ErrorBody>("/listings?ticker=AAPL", { env: tight });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.body).toEqual({
      error: "Too many requests",
      message: "This key has made more requests than its limit for the current minute; retry after 60 seconds",
    });
    // Another key has its own budget; public routes and refused keys spend none.
    expect((await call("/listings?ticker=AAPL", { env: tight, key: READ_ONLY_KEY })).status).toBe(200);
    expect((await call("/health", { env: tight, key: null })).status).toBe(200);
    expect((await call("/listings?ticker=AAPL", { env: tight, key: "not-a-key" })).status).toBe(401);
  });
});
