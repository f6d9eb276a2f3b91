import { beforeAll, describe, expect, inject, it } from "vitest";
import { systemClock } from "../../src/clock";
import { addDays } from "../../src/domain/instants";
import { tenYearsBefore, windowOf } from "../../src/domain/periods";
import type { EodAnswer, IngestAnswer } from "../../src/routes/eod/schema";
import type { TickerHistory } from "../../src/routes/history/schema";
import { dailyHistory } from "../../tools/sandbox/market-data";
import { fault, resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");
const stream = inject("streamSimUrl");

/**
 * The date-sensitive behaviour at a spread of pinned dates, each on a listing of its own: the first
 * /eod ingests exactly the window's sessions up to the last complete one, a rerun of the ingestion
 * has nothing to ask, and a complete listing stays up to date with both providers down.
 */
const DATES: { what: string; at: string; ticker: string; streamSymbol: string }[] = [
  { what: "a Monday", at: "2026-11-23", ticker: "JPM", streamSymbol: "NYSE:JPM" },
  { what: "a Saturday", at: "2025-11-29", ticker: "PG", streamSymbol: "NYSE:PG" },
  { what: "1 January", at: "2026-01-01", ticker: "XOM", streamSymbol: "NYSE:XOM" },
  { what: "29 February", at: "2024-02-29", ticker: "INTC", streamSymbol: "NASDAQ:INTC" },
  { what: "31 December", at: "2025-12-31", ticker: "CSCO", streamSymbol: "NASDAQ:CSCO" },
  { what: "the day after a market holiday", at: "2025-12-26", ticker: "ADBE", streamSymbol: "NASDAQ:ADBE" },
  // Good Friday is a holiday the service's calendar does not know: the providers' empty answer is remembered.
  { what: "the Monday after Good Friday", at: "2026-04-06", ticker: "MCD", streamSymbol: "NYSE:MCD" },
  { what: "today", at: systemClock.today(), ticker: "COST", streamSymbol: "NASDAQ:COST" },
];

describe.each(DATES)("on $what ($at)", ({ at, ticker, streamSymbol }) => {
  beforeAll(() => resetTickers(ticker));

  it("ingests the window's sessions up to the last complete one; a rerun asks for nothing, even with both providers down", async () => {
    const res = await call<EodAnswer>(`/eod/${ticker}?period=1y`, { at });
    expect(res.status).toBe(200);
    expect(res.body.data_source).toBe("delayed_provider");
    // The simulator's own sessions before the pinned day (every weekday but 1 January and 25 December, less null slots).
    const from = windowOf("1y", at).from ?? "";
    const expected = dailyHistory(ticker, addDays(at, -1)).bars.filter((b) => !b.missing && b.date >= from);
    expect(res.body.data.map((b) => b.Date)).toEqual(expected.map((b) => b.date));
    expect(res.body.data.map((b) => b.Close)).toEqual(expected.map((b) => b.close));

    const rerun = await call<IngestAnswer>("/historical/ingest", { at, method: "POST", body: { tickers: [ticker] } });
    expect(rerun.body.window).toEqual({ from: tenYearsBefore(at), to: addDays(at, -1) });
    expect(rerun.body.results[0]).toMatchObject({
      status: "up_to_date",
      requested_ranges: [],
      bars_fetched: 0,
      rows_written: 0,
      errors: [],
    });

    // The symbol's history as the provider serves it: the same sessions of the last month, and the
    // pinned day's own bar where the provider has one (it includes the current session).
    const history = await call<TickerHistory>(`/ticker/${ticker}/history?period=1mo`, { at });
    const month = windowOf("1mo", at).from ?? "";
    const days = history.body.data.map((b) => b.date);
    expect(days.filter((d) => d < at)).toEqual(expected.filter((b) => b.date >= month).map((b) => b.date));
    expect(days.every((d) => d <= at)).toBe(true);

    await fault(yahoo, ticker, "500", 100);
    await fault(stream, streamSymbol, "drop", 100);
    const down = await call<IngestAnswer>("/historical/ingest", { at, method: "POST", body: { tickers: [ticker] } });
    expect(down.body.results[0]).toMatchObject({ status: "up_to_date", requested_ranges: [], rows_written: 0 });
    const last = await call<EodAnswer>(`/eod/${ticker}?period=5d`, { at });
    expect(last.status).toBe(200);
    expect(last.body.data.map((b) => b.Date)).toEqual(expected.slice(-5).map((b) => b.date));
  });
});

describe("the day after Thanksgiving (2026-11-27)", () => {
  beforeAll(() => resetTickers("QQQ"));

  it("plans on the venue's calendar: a listing on Nasdaq is not asked for Thursday, its holiday", async () => {
    const res = await call<IngestAnswer>("/historical/ingest", {
      at: "2026-11-27T15:00:00Z",
      method: "POST",
      body: { tickers: ["QQQ"] },
    });
    expect(res.status).toBe(200);
    expect(res.body.window).toEqual({ from: "2016-11-27", to: "2026-11-26" });
    // From the first weekday of the window to Wednesday: the 26th is no session of Nasdaq's.
    expect(res.body.results[0]?.requested_ranges).toEqual([{ from: "2016-11-28", to: "2026-11-25" }]);
    expect(res.body.results[0]?.status).toBe("ingested");
  });
});
