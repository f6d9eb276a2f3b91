import { describe, expect, it } from "vitest";
import type { CreatedKeySchema } from "../../src/routes/keys/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

type Created = import("zod").infer<typeof CreatedKeySchema>;

/** 10 s into a minute of the pinned clock: the window resets 50 s later, long after the test. */
const AT = "2026-06-01T15:00:10Z";

async function keyWithLimit(rateLimit: number): Promise<Created> {
  const name = `tight ${crypto.randomUUID().slice(0, 8)}`;
  const res = await call<Created>("/keys", {
    method: "POST",
    body: { name, kind: "read_only", rate_limit: rateLimit },
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ rate_limit: rateLimit, rate_limit_is_default: false });
  return res.body;
}

describe("rate limiting per key", () => {
  it("tells each keyed answer its budget, answers 429 once the key's own limit is spent, and counts each key apart", async () => {
    const { key, id } = await keyWithLimit(3);
    const budgets = [];
    for (let i = 0; i < 3; i++) {
      const res = await call("/listings?ticker=AAPL", { key, at: AT });
      expect(res.status).toBe(200);
      budgets.push(["limit", "remaining", "reset", "policy"].map((h) => res.headers.get(`ratelimit-${h}`)));
    }
    // The pinned clock runs on from 15:00:10: the reset is 50 s away, give or take the test's own time.
    expect(budgets.map(([limit, remaining, , policy]) => [limit, remaining, policy])).toEqual([
      ["3", "2", "3;w=60"],
      ["3", "1", "3;w=60"],
      ["3", "0", "3;w=60"],
    ]);
    for (const [, , reset] of budgets) expect(Number(reset)).toBeGreaterThanOrEqual(45);
    const refused = await call<ErrorBody>("/listings?ticker=AAPL", { key, at: AT });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(45);
    expect(wait).toBeLessThanOrEqual(50);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.body).toEqual({
      error: "Too many requests",
      message: `This key has made more requests than its limit of 3 a minute; retry after ${wait} seconds`,
    });
    // Raising the key's limit takes effect in this isolate at once.
    const raised = await call(`/keys/${id}`, { method: "PATCH", body: { rate_limit: 5 } });
    expect(raised.status).toBe(200);
    const again = await call("/listings?ticker=AAPL", { key, at: AT });
    expect(again.status).toBe(200);
    expect([again.headers.get("ratelimit-limit"), again.headers.get("ratelimit-remaining")]).toEqual(["5", "1"]);
    // Another key has its own budget (the settings' default); a public route needs none and tells none.
    const other = await call("/listings?ticker=AAPL", { key: READ_ONLY_KEY, at: AT });
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit-limit")).toBe("10000000");
    const health = await call("/health", { key: null, at: AT });
    expect(health.status).toBe(200);
    expect(health.headers.get("ratelimit-limit")).toBeNull();
  });

  it("counts WebSocket tickets against the key too", async () => {
    const { key } = await keyWithLimit(1);
    expect((await call("/listings?ticker=AAPL", { key, at: AT })).status).toBe(200);
    const refused = await call<ErrorBody>("/realtime/ticket", {
      method: "POST",
      key,
      at: AT,
      body: { ticker: "AAPL" },
    });
    expect(refused.status).toBe(429);
  });
});
