import { beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/routes/errors";
import { READ_ONLY_KEY } from "../helpers/keys";
import { call } from "../helpers/worker-http";

/**
 * The location's cache (Workers Cache API) for answers that are the same for every key: keyed by
 * the URL alone, consulted after the key check, kept no longer than EDGE_CACHE_SECONDS nor than
 * the spec's lifetime of what the answer read, and never for an answer the service did not cache.
 */

const on = (seconds: number, more: Record<string, string> = {}) => ({
  env: { EDGE_CACHE_SECONDS: String(seconds), ...more },
});

/** The copy the location holds for a URL, as the middleware keys it (query in a fixed order). */
async function heldCopy(path: string): Promise<Response | undefined> {
  const u = new URL(`http://svc${path}`);
  u.searchParams.sort();
  return caches.default.match(new Request(u.toString()));
}

beforeAll(async () => {
  // The prices the answers read are stored before any answer is kept.
  expect((await call("/eod/MC.PA?period=1y")).status).toBe(200);
});

describe("the edge cache", () => {
  it("serves a second key the first key's answer, for any order of the query, and keeps it EDGE_CACHE_SECONDS", async () => {
    const path = "/eod/MC.PA?period=6mo&order=d";
    const first = await call<unknown>(path, on(60));
    expect(first.status).toBe(200);
    expect(first.headers.get("x-edge-cache")).toBe("miss");
    const held = await heldCopy(path);
    expect(held?.headers.get("cache-control")).toBe("public, max-age=60");
    // The request that stored it is not part of the copy: neither its id nor its key's budget.
    expect(held?.headers.get("x-request-id")).toBeNull();
    expect(first.headers.get("ratelimit-remaining")).not.toBeNull();
    expect(held?.headers.get("ratelimit-remaining")).toBeNull();

    const second = await call<unknown>("/eod/MC.PA?order=d&period=6mo", { ...on(60), key: READ_ONLY_KEY });
    expect(second.status).toBe(200);
    expect(second.headers.get("x-edge-cache")).toBe("hit");
    expect(second.body).toEqual(first.body);
    // What the client receives says nothing a shared proxy could cache without the key, and its own key's budget.
    expect(second.headers.get("cache-control")).toBeNull();
    expect(second.headers.get("ratelimit-limit")).toBe("10000000");
  });

  it("checks the key before it looks: a held answer is refused without a key or with an unknown one", async () => {
    const path = "/eod/MC.PA?period=3mo";
    expect((await call(path, on(60))).status).toBe(200);
    expect(await heldCopy(path)).toBeDefined();
    const none = await call<ErrorBody>(path, { ...on(60), key: null });
    expect(none.status).toBe(401);
    expect(none.headers.get("x-edge-cache")).toBeNull();
    const unknown = await call<ErrorBody>(path, { ...on(60), key: "not-a-key" });
    expect(unknown.status).toBe(401);
  });

  it("keeps an answer no longer than the spec's lifetime of what it read", async () => {
    // Indicators on daily bars live an hour (spec), EOD answers a day: with a ceiling of two hours,
    // the indicator's copy is kept an hour and the prices' two.
    const indicator = "/technical/MC.PA?indicator=rsi&period=9";
    expect((await call(indicator, on(7200))).status).toBe(200);
    expect((await heldCopy(indicator))?.headers.get("cache-control")).toBe("public, max-age=3600");
    const prices = "/eod/MC.PA?period=1mo";
    expect((await call(prices, on(7200))).status).toBe(200);
    expect((await heldCopy(prices))?.headers.get("cache-control")).toBe("public, max-age=7200");
  });

  it("keeps fundamentals documents as the cache keeps them, and never an answer asked fresh", async () => {
    // The deep document lives a day (spec): the ceiling of two hours rules; the rendered one an hour.
    const deep = "/fundamental/deep?ticker=MC.PA&sections=highlights";
    expect((await call(deep, on(7200))).status).toBe(200);
    expect((await heldCopy(deep))?.headers.get("cache-control")).toBe("public, max-age=7200");
    const rendered = "/fundamental?ticker=AAPL";
    expect((await call(rendered, on(7200))).status).toBe(200);
    expect((await heldCopy(rendered))?.headers.get("cache-control")).toBe("public, max-age=3600");
    for (const fresh of [`${deep}&refresh=true`, `${rendered}&nocache=true`, "/dcf/AAPL?force_refresh=true"]) {
      const res = await call(fresh, on(7200));
      expect(res.status, fresh).toBeLessThan(500);
      expect(await heldCopy(fresh), fresh).toBeUndefined();
    }
  });

  it("keeps nothing the service did not cache, nothing but a 200, and nothing when turned off", async () => {
    const uncached = "/technical/MC.PA?indicator=sma&period=7";
    const a = await call(uncached, on(60, { TECHNICAL_CACHE_ENABLED: "false" }));
    expect(a.status).toBe(200);
    expect(a.headers.get("x-edge-cache")).toBeNull();
    expect(await heldCopy(uncached)).toBeUndefined();

    const missing = "/eod/NOPE.XX?period=1y";
    expect((await call(missing, on(60))).status).toBe(404);
    expect(await heldCopy(missing)).toBeUndefined();

    const off = "/eod/MC.PA?period=ytd";
    const b = await call(off, on(0));
    expect(b.status).toBe(200);
    expect(b.headers.get("x-edge-cache")).toBeNull();
    expect(await heldCopy(off)).toBeUndefined();
  });

  it("leaves writes and routes that differ by key alone", async () => {
    const ingest = await call("/historical/ingest", { ...on(60), method: "POST", body: { tickers: ["MC.PA"] } });
    expect(ingest.status).toBe(200);
    expect(ingest.headers.get("x-edge-cache")).toBeNull();
    const listings = await call("/listings?ticker=MC.PA", on(60));
    expect(listings.status).toBe(200);
    expect(listings.headers.get("x-edge-cache")).toBeNull();
    expect(await heldCopy("/listings?ticker=MC.PA")).toBeUndefined();
  });
});
