import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ListingsAnswer } from "../../src/routes/catalogue/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { FULL_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

describe("bad input", () => {
  it("gets a JSON 4xx, never a 500 or HTML", async () => {
    const cases = [
      "/assets/by-isin/%FF%FE",
      `/assets/by-isin/${"A".repeat(5000)}`,
      "/assets/by-isin/US0378331005%00",
      "/assets/by-isin/%20",
      `/listings?ticker=${"%F0%9F%92%A9".repeat(50)}`,
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
      `/database/ticker/${"A".repeat(300)}`,
      "/cache/stats?x=%FF",
    ];
    for (const path of cases) {
      // Any route's answer: its error fields are read only when it is an error.
      const res = await call<Partial<ErrorBody>>(path);
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
      const res = await call<ErrorBody>(path, { method: "POST", rawBody: body });
      expect(res.status, `${path} ${body}`).toBe(400);
      expect(res.body.error).toBe("Invalid request");
    }
  });

  it("treats a filter as data, not SQL", async () => {
    const res = await call<ListingsAnswer>("/listings?exchange=' OR 1=1 --");
    expect(res.body).toEqual({ count: 0, listings: [] });
  });
});

describe("the benchmark floor route", () => {
  it("does not exist unless BENCH_ROUTES is set", async () => {
    const res = await call<ErrorBody>("/__bench/floor?bytes=100");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Not found", message: "No route for GET /__bench/floor" });
  });
});

describe("inputs that once reached a 500", () => {
  it("refuses dates Postgres cannot hold, and bounds every number", async () => {
    for (const path of [
      "/technical/AAPL?indicator=sma&from_date=0000-01-01",
      "/eod/MC.PA?from=0000-01-01&to=9999-12-31",
      "/eod/MC.PA?from=1899-12-31&to=2024-01-01",
    ]) {
      const res = await call<ErrorBody>(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toBe("Invalid request");
      expect(res.body.message, path).toContain("1900-01-01 or later");
    }
    const cleanup = await call<ErrorBody>("/database/cleanup", {
      method: "POST",
      body: { days_to_keep: 3_000_000, dry_run: true },
    });
    expect(cleanup.status).toBe(400);
    expect(cleanup.body.details).toEqual([{ path: "days_to_keep", message: "Too big: expected number to be <=36500" }]);
  });

  it("answers 503 when the database cannot be reached, and a 500 naming a broken setting but not its value", async () => {
    const down = await call<ErrorBody>("/listings?ticker=AAPL", {
      env: {
        // A database of its own whose endpoints are closed: the shared one's are left as they are.
        DATABASE_URL: "postgres://postgres@db-down.invalid:5432/test",
        NEON_HTTP_ENDPOINT: "http://127.0.0.1:9/sql",
        NEON_WS_PROXY: "127.0.0.1:9/v2",
      },
    });
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      error: "Upstream unavailable",
      message: "The database is unavailable; try again shortly",
    });
    const broken = await call<ErrorBody>("/listings?ticker=AAPL", { env: { PROVIDER_TIMEOUT_MS: "soon-ish" } });
    expect(broken.status).toBe(500);
    expect(broken.body.error).toBe("Internal error");
    expect(broken.body.message).toMatch(/^Invalid service configuration: PROVIDER_TIMEOUT_MS: /);
    expect(broken.body.message).not.toContain("soon-ish");
  });

  it("keeps the meaning of 415, and takes a key only in the Bearer form of Authorization", async () => {
    const res = await call<ErrorBody>("/historical/ingest", {
      method: "POST",
      rawBody: "tickers=AAPL",
      contentType: "text/plain",
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: "Unsupported media type", message: "Unsupported Media Type" });
    const bare = await exports.default.fetch("http://svc/listings?ticker=AAPL", {
      headers: { authorization: FULL_KEY },
    });
    expect(bare.status).toBe(401);
    expect((await call("/listings?ticker=AAPL", { bearer: true })).status).toBe(200);
  });

  it("refuses a body over 64 KiB with a JSON 413 before reading it as JSON", async () => {
    const padded = JSON.stringify({ tickers: ["AAPL"], padding: "x".repeat(64 * 1024) });
    const res = await call<ErrorBody>("/historical/ingest", { method: "POST", rawBody: padded });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: "Payload too large", message: "Request bodies are at most 65536 bytes" });
    // Just under the limit, the same route reads it (and refuses the unknown ticker as data, not size).
    const fits = JSON.stringify({ tickers: ["ZZZZNOPE"], p: "x".repeat(60 * 1024) });
    expect((await call("/historical/ingest", { method: "POST", rawBody: fits })).status).not.toBe(413);
  });
});
