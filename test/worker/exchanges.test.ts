import { describe, expect, it } from "vitest";
import type { ExchangeBody, ExchangesBody } from "../../src/services/exchanges/exchanges";
import { call } from "../helpers/worker-http";

describe("GET /exchanges", () => {
  it("lists every venue of the catalogue, open or closed at the service's clock, with its next open and close", async () => {
    // Friday 27 November 2026, 15:00 UTC: Xetra open until 16:30 UTC, New York open until its 13:00 early close.
    const res = await call<ExchangesBody>("/exchanges", { at: "2026-11-27T15:00:00Z" });
    expect(res.status).toBe(200);
    // The pinned clock runs on from the pinned instant, and the files of one runtime share an app
    // pinned at an instant (worker-http): another file may have pinned this one minutes before.
    // Every expectation below holds until 15:20 UTC.
    const sincePinned = Date.parse(res.body.as_of) - Date.parse("2026-11-27T15:00:00Z");
    expect(sincePinned).toBeGreaterThanOrEqual(0);
    expect(sincePinned).toBeLessThan(20 * 60_000);
    expect(res.body.exchanges.map((e) => e.code).sort()).toEqual(
      "AMS ASX BRU CPH DUB HEL HKEX LIS LSE MCE MIL NASDAQ NYSE NYSEARCA OSL PAR SIX STO TSE TSX VIE XETRA".split(" "),
    );
    expect(res.body.count).toBe(res.body.exchanges.length);
    const xetra = res.body.exchanges.find((e) => e.code === "XETRA");
    expect(xetra).toMatchObject({
      mic: "XETR",
      calendar_through: "2027-12-31",
      time_zone: "Europe/Berlin",
      hours: { open: "09:00", close: "17:30" },
      is_open: true,
      next_close: "2026-11-27T16:30:00.000Z",
      next_open: "2026-11-30T08:00:00.000Z",
    });
    const nyse = res.body.exchanges.find((e) => e.code === "NYSE");
    expect(nyse).toMatchObject({ is_open: true, next_close: "2026-11-27T18:00:00.000Z" });
    expect(nyse?.today).toMatchObject({ early_close: true, close: "2026-11-27T18:00:00.000Z" });
    // Toronto is open too (until 21:00 UTC); Tokyo, Hong Kong and Sydney are in their Saturday.
    expect(res.body.exchanges.find((e) => e.code === "TSX")).toMatchObject({ is_open: true });
    expect(res.body.exchanges.find((e) => e.code === "TSE")?.today).toMatchObject({
      date: "2026-11-28",
      trading: false,
    });
    // The first change is Oslo's close at 15:20 UTC (16:20 there), 20 minutes after the pinned
    // instant: the five-minute cap holds until 15:15 UTC, then the answer lasts until that close.
    const untilOsloCloses = Math.floor((Date.parse("2026-11-27T15:20:00Z") - Date.parse(res.body.as_of)) / 1000);
    expect(res.headers.get("cache-control")).toBe(`private, max-age=${Math.max(1, Math.min(300, untilOsloCloses))}`);
  });
});

describe("GET /exchanges/{code}", () => {
  it("gives this year's and next year's holidays and early closes, with the calendar's source", async () => {
    const res = await call<ExchangeBody>("/exchanges/xetra", { at: "2026-12-24T10:00:00Z" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: "XETRA",
      is_open: false,
      today: { date: "2026-12-24", trading: false, closed_reason: "holiday: Christmas Eve", open: null, close: null },
      next_open: "2026-12-28T08:00:00.000Z",
      next_close: "2026-12-28T16:30:00.000Z",
      calendar_years: ["2026", "2027"],
      calendar_source: { as_of: "2026-11-27" },
    });
    expect(res.body.calendar_note).toBeUndefined();
    expect(res.body.holidays).toContainEqual({ date: "2026-12-31", name: "New Year's Eve" });
    expect(res.body.holidays).toContainEqual({ date: "2027-03-26", name: "Good Friday" });
    expect(res.body.holidays.map((h) => h.date)).toEqual([...res.body.holidays.map((h) => h.date)].sort());
    expect(res.body.early_closes).toEqual([
      { date: "2026-12-30", close: "14:00" },
      { date: "2027-12-30", close: "14:00" },
    ]);
    // Until the next open (Monday 08:00 UTC) is over five minutes away: the cap holds.
    expect(res.headers.get("cache-control")).toBe("private, max-age=300");
  });

  it("says which year's calendar it does not hold yet", async () => {
    const res = await call<ExchangeBody>("/exchanges/NYSE", { at: "2027-06-01T15:00:00Z" });
    expect(res.status).toBe(200);
    expect(res.body.calendar_years).toEqual(["2027"]);
    expect(res.body.calendar_note).toMatch(/2028/);
    expect(res.body.holidays.length).toBe(10);
    expect(res.body.holidays.every((h) => h.date.startsWith("2027"))).toBe(true);
  });

  it("answers 404 with the known codes for an exchange the catalogue does not list", async () => {
    const res = await call<{ error: string; message: string }>("/exchanges/NOPE");
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/Exchange 'NOPE' not found; the catalogue's exchanges are NASDAQ, .*XETRA/);
  });
});
