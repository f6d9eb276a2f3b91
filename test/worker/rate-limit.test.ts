import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/routes/openapi";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

/** The suite's limiter of 3 requests a minute per key (vitest.config.ts), in place of the production one. */
const tight = { KEY_RATE_LIMITER: (env as unknown as { TIGHT_RATE_LIMITER: RateLimit }).TIGHT_RATE_LIMITER };

describe("rate limiting per key", () => {
  it("answers 429 with Retry-After once a key has spent its requests, and counts each key apart", async () => {
    // The limiter's windows follow the wall clock: a minute may turn during the first requests and
    // give the key a fresh budget once, so the refusal comes after 3 to 6 answered requests.
    let answered = 0;
    let refused: Awaited<ReturnType<typeof call<ErrorBody>>> | undefined;
    for (let i = 0; i < 7 && !refused; i++) {
      const res = await call<ErrorBody>("/listings?ticker=AAPL", { env: tight });
      if (res.status === 429) refused = res;
      else {
        expect(res.status).toBe(200);
        answered += 1;
      }
    }
    expect(answered).toBeGreaterThanOrEqual(3);
    expect(answered).toBeLessThanOrEqual(6);
    expect(refused?.headers.get("retry-after")).toBe("60");
    expect(refused?.body).toEqual({
      error: "Too many requests",
      message: "This key has made more requests than its limit for the current minute; retry after 60 seconds",
    });
    // Another key has its own budget; a public route needs none.
    expect((await call("/listings?ticker=AAPL", { env: tight, key: READ_ONLY_KEY })).status).toBe(200);
    expect((await call("/health", { env: tight, key: null })).status).toBe(200);
  });
});
