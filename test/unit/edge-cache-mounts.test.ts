import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { EDGE_CACHED_ROUTES, edgeCache, edgeCacheMounts } from "../../src/middleware/edge-cache";

describe("the edge cache's mounts", () => {
  it("leave out a route another mounted pattern already matches", () => {
    expect(edgeCacheMounts(["/technical/:ticker", "/technical/screen", "/technical/:ticker/chart"])).toEqual([
      "/technical/:ticker",
      "/technical/:ticker/chart",
    ]);
    expect(edgeCacheMounts(["/fundamental", "/fundamental/deep", "/dcf/:ticker", "/dcf/:ticker/sensitivity"])).toEqual([
      "/fundamental",
      "/fundamental/deep",
      "/dcf/:ticker",
      "/dcf/:ticker/sensitivity",
    ]);
  });

  it("put each cacheable route's request through the middleware exactly once, and /health through none", () => {
    const app = createApp();
    const passes = (path: string) => app.routes.filter((r) => r.handler === edgeCache && matches(r.path, path)).length;
    for (const route of EDGE_CACHED_ROUTES) expect(passes(route.replace(/:\w+/g, "X")), route).toBe(1);
    expect(passes("/technical/screen")).toBe(1);
    expect(passes("/health")).toBe(0);
  });
});

/** Whether a Hono pattern of plain segments and `:params` matches a path. */
function matches(pattern: string, path: string): boolean {
  const p = pattern.split("/");
  const q = path.split("/");
  return p.length === q.length && p.every((seg, i) => seg.startsWith(":") || seg === q[i]);
}
