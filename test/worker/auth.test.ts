import { describe, expect, it } from "vitest";
import type { createApp } from "../../src/app";
import type { ErrorBody } from "../../src/routes/openapi";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

/** The spec's public routes and full-access routes; every other documented route needs any key. */
const PUBLIC = new Set(["GET /health", "GET /widgets.json", "GET /apps.json", "GET /openapi.json", "GET /docs"]);
const FULL_ONLY = new Set([
  "POST /health/alerts/{alert_id}/resolve",
  "POST /health/canary/run",
  "POST /cache/clear",
  "POST /cache/clear/{ticker}",
  "POST /database/cleanup",
  "POST /realtime/subscribe",
  "DELETE /realtime/subscribe/{ticker}",
  "POST /news/{ticker}/refresh",
  "POST /historical/ingest",
]);

const SAMPLE: Record<string, string> = {
  isin: "US0378331005",
  ticker: "AAPL",
  symbol: "AAPL",
  alert_id: "1",
  provider_name: "delayed_provider",
};

/** The OpenAPI document as the app generates it. */
type OpenApiDocument = ReturnType<ReturnType<typeof createApp>["getOpenAPI31Document"]>;

async function documentedOperations(): Promise<{ method: string; template: string; path: string }[]> {
  const doc = (await call<OpenApiDocument>("/openapi.json", { key: null })).body;
  expect(doc.paths).toBeDefined();
  const ops: { method: string; template: string; path: string }[] = [];
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    for (const method of Object.keys(item)) {
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE[name] ?? "x");
      ops.push({ method: method.toUpperCase(), template, path });
    }
  }
  return ops;
}

describe("authentication", () => {
  it("serves the public routes without a key", async () => {
    for (const route of ["/health", "/openapi.json", "/docs"]) {
      expect((await call(route, { key: null })).status, route).toBe(200);
    }
  });

  it("answers 401 on every keyed route for a missing or unknown key", async () => {
    const ops = (await documentedOperations()).filter((o) => !PUBLIC.has(`${o.method} ${o.template}`));
    expect(ops.length).toBeGreaterThan(0);
    for (const op of ops) {
      const missing = await call<ErrorBody>(op.path, { method: op.method, key: null });
      expect(missing.status, `${op.method} ${op.path}`).toBe(401);
      expect(missing.body.error).toBe("Unauthorized");
      expect(missing.body.message).toContain("X-API-KEY");
      const unknown = await call<ErrorBody>(op.path, { method: op.method, key: "not-a-key" });
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual({ error: "Unauthorized", message: "Unknown API key" });
    }
  });

  it("answers 403 for a read-only key on a full-access route and lets it read elsewhere", async () => {
    for (const op of await documentedOperations()) {
      const key = `${op.method} ${op.template}`;
      if (PUBLIC.has(key)) continue;
      const res = await call(op.path, { method: op.method, key: READ_ONLY_KEY });
      if (FULL_ONLY.has(key)) expect(res.status, key).toBe(403);
      else expect([401, 403], key).not.toContain(res.status);
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
