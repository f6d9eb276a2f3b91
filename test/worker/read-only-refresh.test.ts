import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { REFRESH_PARAMS } from "../../src/middleware/refresh-guard";
import { FULL_KEY, READ_ONLY_KEY } from "../helpers/keys";

/** Every GET of the OpenAPI document that takes a refresh parameter, with a request that fills its path and ticker. */
async function refreshRoutes(): Promise<{ path: string; param: string }[]> {
  const doc = (await (await exports.default.fetch("http://svc/openapi.json")).json()) as {
    paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
  };
  const out: { path: string; param: string }[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const query = (item.get?.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
    const param = REFRESH_PARAMS.find((p) => query.includes(p));
    if (!param) continue;
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => (name === "ticker" ? "AAPL" : "X"));
    const ticker = query.includes("ticker") && !template.includes("{ticker}") ? "ticker=AAPL&" : "";
    out.push({ path: `${path}?${ticker}${param}=true`, param });
  }
  return out;
}

describe("a read-only key's refresh parameters", () => {
  it("are ignored on every route that takes one, and the answer names them", async () => {
    const routes = await refreshRoutes();
    // The news, DCF and fundamentals routes and their workspace widgets.
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        "/news/AAPL?force_refresh=true",
        "/fundamental?ticker=AAPL&nocache=true",
        "/fundamental/deep?ticker=AAPL&refresh=true",
        "/dcf/AAPL?force_refresh=true",
      ]),
    );
    expect(routes.length).toBeGreaterThanOrEqual(10);
    for (const { path, param } of routes) {
      const ask = (key: string) => exports.default.fetch(`http://svc${path}`, { headers: { "X-API-KEY": key } });
      const readOnly = await ask(READ_ONLY_KEY);
      await readOnly.arrayBuffer();
      expect(readOnly.headers.get("x-refresh-ignored"), path).toBe(`${param} (a read-only key cannot force a refresh)`);
      const full = await ask(FULL_KEY);
      await full.arrayBuffer();
      expect(full.headers.get("x-refresh-ignored"), path).toBeNull();
    }
  });
});
