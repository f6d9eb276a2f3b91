import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/routes/openapi";
import { FULL_KEY, READ_ONLY_KEY } from "../helpers/keys";
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

  it("takes a read-only key as api_token in a GET's query, for a spreadsheet's CSV; never a full-access key", async () => {
    const csv = await call<string>(`/eod/MC.PA?period=1mo&fmt=csv&api_token=${READ_ONLY_KEY}`, { key: null });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.body.split("\n")[0]).toBe("Date,Open,High,Low,Close,Adj Close,Volume");
    const full = await call<ErrorBody>(`/eod/MC.PA?period=1mo&api_token=${FULL_KEY}`, { key: null });
    expect(full.status).toBe(401);
    expect(full.body.message).toContain("A full-access key is never taken from the URL");
    const unknown = await call<ErrorBody>("/eod/MC.PA?period=1mo&api_token=not-a-key", { key: null });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe("Unknown API key");
    // Only on GETs: a POST's query carries no key.
    const post = await call<ErrorBody>(`/technical/batch?api_token=${READ_ONLY_KEY}`, {
      key: null,
      method: "POST",
      body: { tickers: ["MC.PA"], indicators: ["rsi"] },
    });
    expect(post.status).toBe(401);
  });

  it("answers unknown routes with a JSON 404 once authenticated, and asks for a key before that", async () => {
    expect((await call("/nope", { key: null })).status).toBe(401);
    const res = await call<ErrorBody>("/nope");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Not found", message: "No route for GET /nope" });
  });
});
