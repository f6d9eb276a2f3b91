import { beforeAll, describe, expect, it } from "vitest";
import type { StoredTicker } from "../../src/routes/database/schema";
import type { IngestAnswer } from "../../src/routes/eod/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { READ_ONLY_KEY } from "../helpers/keys";
import { resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

// A Thursday whose ten-year window starts on a Saturday (2016-11-26): the day this test once broke on.
const at = "2026-11-26";
const yesterday = "2026-11-25";
const tenYearsAgo = "2016-11-26";

describe("POST /historical/ingest", () => {
  beforeAll(() => resetTickers("NFLX", "KO", "RACE", "RACE.MI"));

  it("ingests ten years on a fresh listing, and a rerun changes no row", async () => {
    const first = await call<IngestAnswer>("/historical/ingest", { at, method: "POST", body: { tickers: ["nflx"] } });
    expect(first.status).toBe(200);
    expect(first.body.window).toEqual({ from: tenYearsAgo, to: yesterday });
    expect(first.body.count).toBe(1);
    const r = first.body.results[0];
    expect(r).toMatchObject({
      query: "NFLX",
      status: "ingested",
      ticker: "NFLX",
      isin: "US64110L1061",
      exchange: "NASDAQ",
      currency: "USD",
      source: "delayed_provider",
      errors: [],
    });
    // The window's first weekend can hold no session: it is never asked for, so a rerun has nothing to ask.
    expect(r?.requested_ranges).toEqual([{ from: "2016-11-28", to: yesterday }]);
    // About 252 sessions a year, less the simulator's rare null slots.
    expect(r?.bars_fetched).toBeGreaterThan(2480);
    expect(r?.rows_written).toBe(r?.bars_fetched);
    expect(first.body.rows_written).toBe(r?.rows_written);

    const again = await call<IngestAnswer>("/historical/ingest", { at, method: "POST", body: { tickers: ["NFLX"] } });
    expect(again.body.results[0]).toMatchObject({
      status: "up_to_date",
      requested_ranges: [],
      bars_fetched: 0,
      rows_written: 0,
    });

    // Asking for a stored window again fetches nothing either.
    const stored = await call<IngestAnswer>("/historical/ingest", {
      at,
      method: "POST",
      body: { tickers: ["NFLX"], from: "2020-01-02", to: "2020-12-31" },
    });
    expect(stored.body.results[0]).toMatchObject({ status: "up_to_date", rows_written: 0 });

    const db = await call<StoredTicker>("/database/ticker/NFLX", { at });
    expect(db.status).toBe(200);
    expect(db.body.listings).toHaveLength(1);
    expect(db.body.listings[0]).toMatchObject({
      ticker: "NFLX",
      bars: r?.rows_written,
      last_source: "delayed_provider",
    });
    const [series] = db.body.listings;
    expect(series && series.first_date >= tenYearsAgo).toBe(true);
    expect(series && series.last_date <= yesterday).toBe(true);
  });

  it("fetches only the missing edge when asked for more history, and nothing twice", async () => {
    // Its own starting point (ten years stored), whether or not the test above ran.
    const base = await call<IngestAnswer>("/historical/ingest", { at, method: "POST", body: { tickers: ["NFLX"] } });
    expect(["ingested", "up_to_date"]).toContain(base.body.results[0]?.status);
    const before = (await call<StoredTicker>("/database/ticker/NFLX", { at })).body.listings[0];
    const older = await call<IngestAnswer>("/historical/ingest", {
      at,
      method: "POST",
      body: { tickers: ["NFLX"], from: "2015-01-02", to: "2016-12-30" },
    });
    const r = older.body.results[0];
    expect(r?.status).toBe("ingested");
    // Up to the Friday before the first stored Monday: the weekend between is not missing.
    expect(before?.first_date).toBe("2016-11-28");
    expect(r?.requested_ranges).toEqual([{ from: "2015-01-02", to: "2016-11-25" }]);
    expect(r?.rows_written).toBe(r?.bars_fetched);
    const after = (await call<StoredTicker>("/database/ticker/NFLX", { at })).body.listings[0];
    expect(after?.first_date).toBe("2015-01-02");
    expect(after?.bars).toBe(Number(before?.bars) + Number(r?.rows_written));
    expect(after?.last_date).toBe(before?.last_date);
  });

  it("ingests every listing of an ISIN and reports unknown names without failing the rest", async () => {
    const res = await call<IngestAnswer>("/historical/ingest", {
      at,
      method: "POST",
      body: { isins: ["NL0011585146"], tickers: ["NOSUCH"], period: "1mo" },
    });
    expect(res.status).toBe(200);
    const byQuery = res.body.results.map((x) => [x.query, x.ticker, x.exchange, x.status]);
    expect(byQuery).toEqual([
      ["NOSUCH", null, null, "not_found"],
      ["NL0011585146", "RACE", "MIL", "ingested"],
      ["NL0011585146", "RACE", "NYSE", "ingested"],
      ["NL0011585146", "RACE.MI", "MIL", "ingested"],
    ]);
    expect(res.body.results[0]?.errors).toEqual([{ provider: "catalogue", message: "no active listing for NOSUCH" }]);
  });

  it.each([
    ["no names", {}],
    ["too many names", { tickers: Array.from({ length: 21 }, (_, i) => `T${i}`) }],
    ["a bad ticker", { tickers: ["WAY-TOO-LONG-TICKER"] }],
    ["a bad ISIN", { isins: ["US123"] }],
    ["from without to", { tickers: ["KO"], from: "2024-01-02" }],
    ["a bad period", { tickers: ["KO"], period: "7y" }],
  ])("refuses %s with 400", async (_what, body) => {
    const res = await call<ErrorBody>("/historical/ingest", { method: "POST", body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid request");
  });

  it("needs a full-access key", async () => {
    const res = await call("/historical/ingest", { at, method: "POST", body: { tickers: ["KO"] }, key: READ_ONLY_KEY });
    expect(res.status).toBe(403);
    expect((await call("/database/ticker/KO")).status).toBe(404);
  });
});
