import { describe, expect, it } from "vitest";
import type { Asset, ListingsAnswer } from "../../src/routes/catalogue/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { call } from "../helpers/worker-http";

describe("GET /assets/by-isin/{isin}", () => {
  it("returns Apple with its preferred listing and all listings", async () => {
    const { status, body } = await call<Asset>("/assets/by-isin/US0378331005");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: "Apple Inc.",
      isin: "US0378331005",
      ticker: "AAPL",
      exchange: "NASDAQ",
      currency: "USD",
      sector: "Technology",
      industry: "Consumer Electronics",
      quote_type: "EQUITY",
    });
    expect(body.listings).toHaveLength(1);
    expect(body.listing_id).toBe(body.listings[0]?.id);
    expect(body.listings[0]).toEqual({
      id: body.listing_id,
      asset_id: body.asset_id,
      ticker: "AAPL",
      exchange: "NASDAQ",
      currency: "USD",
      isin: "US0378331005",
      name: "Apple Inc.",
      source: "seed",
      is_primary: true,
      is_active: true,
    });
    // Optional fields are absent when unknown, never null.
    expect(body).not.toHaveProperty("logo_path");
  });

  it("chooses the primary listing of an instrument listed in two currencies, and accepts a lower-case ISIN", async () => {
    const { status, body } = await call<Asset>("/assets/by-isin/nl0011585146");
    expect(status).toBe(200);
    expect(body.isin).toBe("NL0011585146");
    expect([body.ticker, body.exchange, body.currency]).toEqual(["RACE", "MIL", "EUR"]);
    const lines = body.listings.map((l) => `${l.ticker}/${l.exchange}/${l.currency}`).sort();
    expect(lines).toEqual(["RACE.MI/MIL/EUR", "RACE/MIL/EUR", "RACE/NYSE/USD"]);
  });

  it("answers 404 for an unknown ISIN and 400 for a malformed one or one whose check digit is wrong", async () => {
    const unknown = await call<ErrorBody>("/assets/by-isin/US0000000002");
    expect(unknown.status).toBe(404);
    // Asked of the providers first (discovery on read), which know it no more than the catalogue.
    expect(unknown.body).toEqual({
      error: "No data found",
      message: "Instrument with ISIN 'US0000000002' not found",
      reason: "no provider knows US0000000002",
    });
    // With discovery off, the same 404; its reason says the providers were not asked.
    const off = await call<ErrorBody>("/assets/by-isin/US0000000002", { env: { CATALOGUE_DISCOVERY: "false" } });
    expect(off.status).toBe(404);
    expect(off.body).toEqual({
      error: "No data found",
      message: "Instrument with ISIN 'US0000000002' not found",
      reason:
        "not in the catalogue, and reads do not add instruments here (CATALOGUE_DISCOVERY=false): a POST /assets with a full-access key adds it",
    });
    // Apple's ISIN with its last digit mistyped: no instrument anywhere (a departure from the spec's 404).
    for (const path of [
      "/assets/by-isin/US0378331006",
      "/listings?isin=US0378331006",
      "/eod/AAPL?period=1mo&isin=us0378331006",
    ]) {
      const typo = await call<ErrorBody>(path);
      expect(typo.status, path).toBe(400);
      expect(typo.body.message, path).toContain("US0378331006 is no ISIN: its check digit should be 5, not 6");
    }
    for (const bad of ["US03783310", "1S0378331005", "US037833100%2A", "US0378331005X"]) {
      const res = await call<ErrorBody>(`/assets/by-isin/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toBe("Invalid request");
      expect(res.body.message).toContain("ISIN");
    }
  });
});

describe("GET /listings", () => {
  it("refuses a request without a filter", async () => {
    const { status, body } = await call<ErrorBody>("/listings");
    expect(status).toBe(400);
    expect(body).toEqual({
      error: "Invalid request",
      message: "At least one filter is required: ticker, isin, exchange or currency",
    });
    expect((await call("/listings?ticker=")).status).toBe(400);
  });

  it("returns the listings sharing a ticker in listing-choice order", async () => {
    const { status, body } = await call<ListingsAnswer>("/listings?ticker=race");
    expect(status).toBe(200);
    expect(body.count).toBe(2);
    expect(body.listings.map((l) => [l.exchange, l.currency, l.is_primary])).toEqual([
      ["MIL", "EUR", true],
      ["NYSE", "USD", false],
    ]);
    expect(body.listings.every((l) => l.isin === "NL0011585146")).toBe(true);
  });

  it("combines filters", async () => {
    const usd = await call<ListingsAnswer>("/listings?ticker=RACE&currency=usd");
    expect(usd.body.count).toBe(1);
    expect(usd.body.listings[0]?.exchange).toBe("NYSE");
    const xetra = await call<ListingsAnswer>("/listings?exchange=XETRA&isin=IE00B4L5Y983");
    expect(xetra.body.listings.map((l) => l.ticker)).toEqual(["EUNL.DE"]);
    const paris = await call<ListingsAnswer>("/listings?exchange=PAR&currency=EUR");
    expect(paris.body.count).toBeGreaterThanOrEqual(15);
    expect(paris.body.listings.every((l) => l.ticker.endsWith(".PA"))).toBe(true);
  });

  it("answers an empty list for a filter that matches nothing, and 400 for a malformed ISIN", async () => {
    expect((await call<ListingsAnswer>("/listings?ticker=NOPE")).body).toEqual({ count: 0, listings: [] });
    const bad = await call<ErrorBody>("/listings?isin=XYZ");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("Invalid ISIN");
  });
});
