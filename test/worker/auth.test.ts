import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/routes/openapi";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

/** The routes' access, operation by operation and key by key, is the generated matrix's (test/hardening/auth-matrix.net.ts). */
describe("authentication", () => {
  it("serves the public routes without a key", async () => {
    for (const route of ["/health", "/openapi.json", "/docs"]) {
      expect((await call(route, { key: null })).status, route).toBe(200);
    }
  });

  it("accepts the key as X-API-KEY or as a Bearer token", async () => {
    expect((await call("/listings?ticker=AAPL")).status).toBe(200);
    expect((await call("/listings?ticker=AAPL", { bearer: true })).status).toBe(200);
    expect((await call("/listings?ticker=AAPL", { key: READ_ONLY_KEY, bearer: true })).status).toBe(200);
  });

  it("answers unknown routes with a JSON 404 once authenticated, and asks for a key before that", async () => {
    expect((await call("/nope", { key: null })).status).toBe(401);
    const res = await call<ErrorBody>("/nope");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Not found", message: "No route for GET /nope" });
  });
});
