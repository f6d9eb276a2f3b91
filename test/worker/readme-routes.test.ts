import { describe, expect, it } from "vitest";
import readme from "../../README.md?raw";
import { call } from "../helpers/worker-http";

/**
 * The README's "What works today" kept true: every route it names there answers (a route that
 * matched: neither the service's "No route for" 404 nor a 5xx). Writes are sent a body of the
 * wrong shape, so they answer 400 without writing anything.
 */

const section = readme.slice(readme.indexOf("What works today"), readme.indexOf("## Run it"));
const named = [...section.matchAll(/`(GET|POST|DELETE|WS) (\/[^`\s]*)`/g)].map((m) => ({
  method: m[1] as string,
  path: m[2] as string,
}));

/** A sample for each path parameter, and the query a route cannot answer without. */
const SAMPLES: Record<string, string> = {
  "{isin}": "FR0000121014",
  "{ticker}": "MC.PA",
  "{symbol}": "MC.PA",
  "{index_name}": "cac40",
  "{code}": "XETRA",
  "{exchange}": "XETRA",
};
const QUERIES: Record<string, string> = {
  "/fundamental": "?ticker=MC.PA",
  "/fundamental/deep": "?ticker=MC.PA&sections=highlights",
  "/quotes": "?tickers=MC.PA",
  "/search": "?q=apple",
  "/workspace/quote": "?ticker=MC.PA",
  "/technical/screen": "?indicator=rsi&operator=lt&value=30",
  // Not a provider the canary watches: a 400, and no run started.
  "/health/canary/run": "?provider_name=not_a_provider",
};

describe("the README's state of the project", () => {
  it("names the route families", () => {
    expect(named.length).toBeGreaterThan(40);
    expect(named.map((r) => r.path)).toEqual(
      expect.arrayContaining(["/widgets.json", "/health/stats", "/eod/{ticker}"]),
    );
  });

  it.each(named.map((r) => [`${r.method} ${r.path}`, r]))("%s answers", async (_label, r) => {
    // A write is sent for a ticker the catalogue does not list: it is refused, nothing is fetched or stored.
    const sample = (p: string) => (r.method === "POST" && p === "{ticker}" ? "ZZNOTLISTED" : (SAMPLES[p] ?? p));
    const path = r.path.replace(/\{[a-z_]+\}/g, sample) + (QUERIES[r.path] ?? "");
    const res = await call<{ message?: string }>(path, {
      method: r.method === "WS" ? "GET" : r.method,
      ...(r.method === "POST" ? { body: { not_a_field: true } } : {}),
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBeLessThan(500);
    expect(String(res.body?.message ?? "")).not.toMatch(/^No route for/);
  });
});
