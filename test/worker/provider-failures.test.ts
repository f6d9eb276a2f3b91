import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { listings, pricesDaily } from "../../src/db/schema";
import type { EodAnswer, IngestAnswer } from "../../src/routes/eod/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import type { Quote, QuotesAnswer } from "../../src/routes/realtime/schema";
import { withDb } from "../helpers/db";
import { clearFault, fault, forgetCached, resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");
const stream = inject("streamSimUrl");

describe("GET /quote and /quotes: a failing provider is never 'not found'", () => {
  it.each([
    ["HTTP 500", "500", "delayed_provider: HTTP 500"],
    ["a timeout", "timeout", "no complete answer within 1500 ms"],
    ["a body that stalls after the headers", "stall", "no complete answer within 1500 ms"],
    ["a malformed body", "malformed", "not JSON"],
    ["a rate limit", "ratelimit", "rate limit reached (HTTP 429)"],
  ])("answers 503 for %s", async (_what, mode, message) => {
    await forgetCached("quote:MBG.DE");
    await fault(yahoo, "MBG.DE", mode, 5);
    const res = await call<ErrorBody>("/quote/MBG.DE");
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("Upstream unavailable");
    expect(res.body.message).toContain(message);
  });

  it("answers 404 only when the provider says it has no such symbol, and takes the provider's own symbols", async () => {
    await fault(yahoo, "MBG.DE", "unknown", 1);
    const unknown = await call<ErrorBody>("/quote/MBG.DE");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: "No data found",
      message: "No quote found for MBG.DE",
      reason: "unknown symbol MBG.DE",
    });
    for (const symbol of ["%5EGSPC", "USDJPY%3DX", "GC%3DF"]) {
      const res = await call<ErrorBody>(`/quote/${symbol}`);
      // Refused by the simulator, which lists no index, future or pair other than the euro's; never a 400.
      expect(res.status).toBe(404);
      expect(res.body.reason).toMatch(/^unknown symbol /);
    }
  });

  it("gives a null with its reason to each ticker of /quotes that has no quote, without failing the others", async () => {
    await fault(yahoo, "BMW.DE", "500", 5);
    const res = await call<QuotesAnswer>("/quotes?tickers=MSFT,BMW.DE,NOSUCHSYM,BAD$SYM");
    expect(res.status).toBe(200);
    expect(res.body.tickers).toEqual(["MSFT", "BMW.DE", "NOSUCHSYM", "BAD$SYM"]);
    expect(res.body.quotes.MSFT?.source).toBe("delayed_provider");
    expect(res.body.quotes["BMW.DE"]).toBeNull();
    expect(res.body.quotes.NOSUCHSYM).toBeNull();
    expect(res.body.quotes.BAD$SYM).toBeNull();
    expect(res.body.errors).toEqual({
      "BMW.DE": "delayed_provider: HTTP 500",
      NOSUCHSYM: "no quote: unknown symbol NOSUCHSYM",
      BAD$SYM: "not a symbol: a symbol is letters, digits, '.', '-', '^' or '=', with a letter or digit",
    });
  });

  it("fills the session's high, low and volume from the chart meta", async () => {
    const res = await call<Quote>("/quote/ADS.DE");
    expect(res.status).toBe(200);
    const chart = (await (await fetch(`${yahoo}/v8/finance/chart/ADS.DE?range=5d&interval=1d`)).json()) as {
      chart: {
        result: { meta: { regularMarketDayHigh: number; regularMarketDayLow: number; regularMarketVolume: number } }[];
      };
    };
    const meta = chart.chart.result[0]?.meta;
    expect(Number(res.body.high)).toBe(Math.round((meta?.regularMarketDayHigh ?? 0) * 100) / 100);
    expect(Number(res.body.low)).toBe(Math.round((meta?.regularMarketDayLow ?? 0) * 100) / 100);
    expect(res.body.volume).toBe(meta?.regularMarketVolume);
  });
});

describe("GET /eod: one deadline for the whole request", () => {
  beforeAll(() => resetTickers("SAN.PA", "DTE.DE"));

  it("answers 503 naming each provider within the deadline when the delayed provider times out and the stream provider is silent", async () => {
    await fault(yahoo, "SAN.PA", "timeout", 100);
    await fault(stream, "EURONEXT:SAN", "silent", 100);
    const started = performance.now();
    const res = await call<ErrorBody>("/eod/SAN.PA?period=1mo", { deadlineMs: 2500 });
    const elapsed = performance.now() - started;
    expect(res.status).toBe(503);
    expect(res.body.reason).toMatch(
      /^delayed_provider: no complete answer within 1500 ms; stream_provider: no complete series for EURONEXT:SAN within \d+ ms$/,
    );
    // The deadline is a contract of the route, not a speed: the answer leaves once it has passed.
    expect(elapsed).toBeLessThan(2500 + 1000);
  });

  it("falls back to the stream provider when the delayed provider's body stalls after its headers", async () => {
    await fault(yahoo, "DTE.DE", "stall", 100);
    const res = await call<EodAnswer>("/eod/DTE.DE?period=1mo");
    expect(res.status).toBe(200);
    expect(res.body.data_source).toBe("stream_provider");
  });
});

describe("data quality after a fallback", () => {
  beforeAll(() => resetTickers("BAYN.DE", "VOW3.DE"));

  it("replaces stream-sourced bars by the delayed provider's adjusted ones once it is back", async () => {
    await fault(yahoo, "BAYN.DE", "500", 1000);
    const fallback = await call<EodAnswer>("/eod/BAYN.DE?period=1y");
    expect(fallback.body.data_source).toBe("stream_provider");
    for (const b of fallback.body.data) expect(b["Adj Close"]).toBe(b.Close);
    await clearFault(yahoo, "BAYN.DE");

    const recovered = await call<EodAnswer>("/eod/BAYN.DE?period=1y");
    expect(recovered.status).toBe(200);
    expect(recovered.body.data_source).toBe("database");
    // Dividends in the year: the delayed provider's adjusted closes are below the closes before them.
    const adjusted = recovered.body.data.filter((b) => b["Adj Close"] < b.Close);
    expect(adjusted.length).toBeGreaterThan(100);
    const sources = await withDb((db) =>
      db
        .selectDistinct({ s: pricesDaily.dataSource })
        .from(pricesDaily)
        .innerJoin(listings, eq(listings.id, pricesDaily.listingId))
        .where(eq(listings.ticker, "BAYN.DE")),
    );
    expect(sources).toEqual([{ s: "delayed_provider" }]);
  });

  it("does not remember 'no symbol' after a transient 'unknown' answer", async () => {
    // Both probes of the verification (after the ISIN search, after the name search) hear "unknown".
    await fault(yahoo, "VOW3.DE", "unknown", 2);
    const first = await call<EodAnswer>("/eod/VOW3.DE?period=1mo");
    expect(first.status).toBe(200);
    expect(first.body.data_source).toBe("stream_provider");
    const [row] = await withDb((db) =>
      db
        .select({ symbol: listings.delayedSymbol, checked: listings.delayedSymbolCheckedAt })
        .from(listings)
        .where(eq(listings.ticker, "VOW3.DE")),
    );
    expect(row).toEqual({ symbol: null, checked: null });

    const ingest = await call<IngestAnswer>("/historical/ingest", {
      method: "POST",
      body: { tickers: ["VOW3.DE"], period: "1mo" },
    });
    // Nothing was missing, but the stream-sourced bars were replaced: rows written.
    expect(ingest.body.results[0]).toMatchObject({
      status: "ingested",
      requested_ranges: [],
      source: "delayed_provider",
      errors: [],
    });
    expect(ingest.body.results[0]?.replaced_ranges).toHaveLength(1);
    const [after] = await withDb((db) =>
      db.select({ symbol: listings.delayedSymbol }).from(listings).where(eq(listings.ticker, "VOW3.DE")),
    );
    expect(after?.symbol).toBe("VOW3.DE");
  });
});
