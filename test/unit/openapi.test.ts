import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";

/** The parts of an OpenAPI operation these tests read. */
type Operation = {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  parameters?: { name: string; in: string }[];
};

/** Routes outside the HTTP API: the document itself, its viewer and the viewer's script, the example pages, the benchmark floor (off unless BENCH_ROUTES) and the realtime WebSocket. */
const DOC_ROUTES = new Set([
  "GET /openapi.json",
  "GET /docs",
  "GET /docs/assets/*",
  "GET /examples/*",
  "GET /__bench/floor",
  "GET /ws/realtime/:ticker",
  // The MCP server: JSON-RPC messages, not an operation; its tools are listed in the document's description.
  "POST /mcp",
  "GET /mcp",
  "DELETE /mcp",
]);

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3 document", async () => {
    const res = await createApp().request("/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string };
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\./);
  });

  it("names every route the app serves, with its parameters and answer schema", async () => {
    const app = createApp();
    const doc = (await (await app.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`),
      ),
    );
    const served = app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`);
    const undocumented = served.filter((r) => !documented.has(r) && !DOC_ROUTES.has(r));
    expect(undocumented).toEqual([]);
    expect(served.length).toBeGreaterThanOrEqual(documented.size);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        // Its success answer: 200, or 202 for work accepted and queued (POST /assets/import).
        const success = Object.keys(op.responses ?? {}).find((s) => /^2\d\d$/.test(s)) ?? "200";
        expect(["200", "202"], `${method} ${path}`).toContain(success);
        expect(op.responses?.[success]?.content?.["application/json"]?.schema, `${method} ${path}`).toBeDefined();
        for (const name of path.match(/\{(\w+)\}/g) ?? []) {
          const param = name.slice(1, -1);
          expect(
            op.parameters?.some((p) => p.name === param && p.in === "path"),
            `${path} ${param}`,
          ).toBe(true);
        }
      }
    }
    expect(documented).toContain("GET /assets/by-isin/:isin");
    expect(doc.paths["/eod/{ticker}"]?.get?.responses?.["503"]).toBeDefined();
    expect(documented).toContain("GET /listings");
    expect(documented).toContain("GET /health");
  });

  it("gives every operation a summary, a description and one declared tag, the workspace's apart", async () => {
    const doc = (await (await createApp().request("/openapi.json")).json()) as {
      tags: { name: string; description: string }[];
      paths: Record<string, Record<string, { summary?: string; description?: string; tags?: string[] }>>;
    };
    const declared = doc.tags.map((t) => t.name);
    expect(declared).toEqual([
      "Assets and listings",
      "Prices",
      "FX",
      "Technical indicators",
      "Fundamentals",
      "Valuation",
      "News",
      "Realtime",
      "Monitoring",
      "Cache administration",
      "Database administration",
      "Keys",
      "Legacy",
      "Analytics workspace",
    ]);
    for (const t of doc.tags) expect(t.description.length, t.name).toBeGreaterThan(60);
    const used = new Map<string, number>();
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.summary?.trim().length ?? 0, where).toBeGreaterThan(10);
        expect(op.description?.trim().length ?? 0, where).toBeGreaterThan(40);
        expect(op.tags, where).toHaveLength(1);
        const tag = op.tags?.[0] ?? "";
        expect(declared, where).toContain(tag);
        // The workspace adapter's routes, and only they, sit under its tag.
        expect(tag === "Analytics workspace", where).toBe(
          path.startsWith("/workspace/") || /^\/(widgets|apps)\.json$/.test(path),
        );
        used.set(tag, (used.get(tag) ?? 0) + 1);
      }
    // No declared tag is left empty.
    expect([...used.keys()].sort()).toEqual([...declared].sort());
    // The WebSocket protocol is described where the realtime routes are.
    const realtime = doc.tags.find((t) => t.name === "Realtime")?.description ?? "";
    for (const word of ["/ws/realtime/{ticker}", "snapshot", "tick", "not_streaming", "error", "1008", "pong"])
      expect(realtime).toContain(word);
  });

  it("declares each operation's error answers from the one table: 400, 500, 503, and 401/403 as its access says", async () => {
    const doc = (await (await createApp().request("/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { description?: string }>; "x-access"?: string }>
      >;
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const access = op["x-access"];
        expect(["public", "any", "full", "admin"], `${method} ${path}`).toContain(access);
        const statuses = Object.keys(op.responses);
        const expected = [
          "400",
          "500",
          "503",
          ...(access === "public" ? [] : ["401"]),
          ...(access === "full" || access === "admin" ? ["403"] : []),
        ];
        for (const s of expected) expect(statuses, `${method} ${path}`).toContain(s);
        // On other routes a 403 is the route's own (GET /usage: another key's usage), never the access table's.
        if (access !== "full" && access !== "admin" && statuses.includes("403"))
          expect(op.responses["403"]?.description, `${method} ${path}`).not.toBe("A full-access key is required");
      }
    }
  });
});
