import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FULL_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

describe("bad input", () => {
  it("gets a JSON 4xx, never a 500 or HTML", async () => {
    const cases = [
      "/assets/by-isin/%FF%FE",
      "/assets/by-isin/" + "A".repeat(5000),
      "/assets/by-isin/US0378331005%00",
      "/assets/by-isin/%20",
      "/listings?ticker=" + "%F0%9F%92%A9".repeat(50),
      "/listings?isin=US0378331005&isin=FR0000121014",
      "/listings?currency=%00",
      "/listings?exchange=' OR 1=1 --",
      "/eod/%00?period=1y",
      "/eod/MC.PA?period=1y&isin=FR0000121014%00",
      "/eod/MC.PA?period=1y&currency=EU%00",
      "/eod/MC.PA?period=1y&exchange=*",
      "/eod/MC.PA?from=9999-99-99&to=2024-01-01",
      "/eod/MC.PA?period=1y&period=5d",
      "/eod/..%2F..%2Fetc?period=1y",
      "/ticker/%00/history",
      "/ticker/MC.PA/history?from=2024-01-01&to=%FF",
      "/database/ticker/" + "A".repeat(300),
      "/cache/stats?x=%FF",
    ];
    for (const path of cases) {
      const res = await call(path);
      expect(res.status, path).toBeGreaterThanOrEqual(200);
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get("content-type"), path).toContain("application/json");
      if (res.status >= 400) expect(typeof res.body.message, path).toBe("string");
    }
  });

  it("refuses hostile bodies on the write routes with a JSON 400", async () => {
    const bodies: [string, string][] = [
      ["/historical/ingest", "{"],
      ["/historical/ingest", "[]"],
      ["/historical/ingest", '{"tickers":"AAPL"}'],
      ["/historical/ingest", '{"tickers":[null]}'],
      ["/database/cleanup", '{"days_to_keep":1e308}'],
      ["/database/cleanup", "null"],
    ];
    for (const [path, body] of bodies) {
      const res = await exports.default.fetch(`http://svc${path}`, { method: "POST", headers: { "x-api-key": FULL_KEY, "content-type": "application/json" }, body });
      expect(res.status, `${path} ${body}`).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe("Invalid request");
    }
  });

  it("treats a filter as data, not SQL", async () => {
    const res = await call("/listings?exchange=' OR 1=1 --");
    expect(res.body).toEqual({ count: 0, listings: [] });
  });
});

describe("the benchmark floor route", () => {
  it("does not exist unless BENCH_ROUTES is set", async () => {
    const res = await call("/__bench/floor?bytes=100");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Not found", message: "No route for GET /__bench/floor" });
  });
});
