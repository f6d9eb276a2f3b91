import { describe, expect, it } from "vitest";
import { venueOfDelayedExchange, venueOfSuffix } from "../../src/domain/provider-symbols";
import { CALENDAR_YEARS, missingSession, UNKNOWN_VENUE, VENUES } from "../../src/domain/venues";

const venues = Object.values(VENUES);
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
const inCalendar = (date: string) =>
  /^\d{4}-\d\d-\d\d$/.test(date) && (CALENDAR_YEARS as readonly string[]).includes(date.slice(0, 4));

describe("the venues' records", () => {
  it("list holidays only on weekdays of the calendar years, and early closes on other weekdays, inside the session", () => {
    for (const v of venues) {
      for (const date of Object.keys(v.holidays)) {
        expect(inCalendar(date), `${v.code} ${date}`).toBe(true);
        expect([0, 6], `${v.code} ${date}`).not.toContain(weekday(date));
      }
      for (const [date, close] of Object.entries(v.earlyCloses)) {
        expect(inCalendar(date), `${v.code} ${date}`).toBe(true);
        expect([0, 6], `${v.code} ${date}`).not.toContain(weekday(date));
        expect(v.holidays[date], `${v.code} ${date}`).toBeUndefined();
        expect(close > v.open && close < v.close, `${v.code} ${date} ${close}`).toBe(true);
      }
    }
  });

  it("hold their hours and time zone in a form the calendar reads", () => {
    for (const v of [...venues, UNKNOWN_VENUE]) {
      expect(v.open, v.code).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
      expect(v.close, v.code).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
      expect(v.open < v.close, v.code).toBe(true);
      expect(() => new Intl.DateTimeFormat("en-US", { timeZone: v.timeZone }), v.code).not.toThrow();
    }
  });

  it("are each the one venue of their MIC, suffix and delayed-provider exchange codes", () => {
    const mics = venues.map((v) => v.mic);
    expect(new Set(mics).size).toBe(mics.length);
    const suffixes = venues.flatMap((v) => (v.suffix ? [v.suffix] : []));
    expect(new Set(suffixes).size).toBe(suffixes.length);
    const codes = venues.flatMap((v) => v.delayedExchanges);
    expect(new Set(codes).size).toBe(codes.length);
    for (const v of venues) {
      expect(v.delayedExchanges.length, v.code).toBeGreaterThan(0);
      for (const code of v.delayedExchanges) expect(venueOfDelayedExchange(code), `${v.code} ${code}`).toBe(v);
      if (v.suffix) expect(venueOfSuffix(v.suffix), v.code).toBe(v);
      // Only the US venues' tickers carry no suffix (and only they are named in dollars).
      expect(v.suffix === null, v.code).toBe(v.currency === "USD");
    }
  });

  it("name a currency and the home countries of each venue; only New York's venues share theirs", () => {
    const homeOf = new Map<string, string[]>();
    for (const v of venues) {
      expect(v.currency, v.code).toMatch(/^[A-Z]{3}$/);
      expect(v.countries.length, v.code).toBeGreaterThan(0);
      for (const c of v.countries) {
        expect(c, v.code).toMatch(/^[A-Z]{2}$/);
        homeOf.set(c, [...(homeOf.get(c) ?? []), v.code]);
      }
      expect(v.delayedExchangeName, v.code).not.toBe("");
      expect(v.streamExchange, v.code).toMatch(/^[A-Z]+$/);
    }
    const shared = [...homeOf].filter(([, codes]) => codes.length > 1);
    expect(shared).toEqual([["US", ["NASDAQ", "NYSE", "NYSEARCA"]]]);
  });

  it("hold the venues users meet next, with their MIC and main currency", () => {
    const byCode = (code: string) => [VENUES[code]?.mic, VENUES[code]?.currency, VENUES[code]?.timeZone];
    expect(byCode("TSX")).toEqual(["XTSE", "CAD", "America/Toronto"]);
    expect(byCode("SIX")).toEqual(["XSWX", "CHF", "Europe/Zurich"]);
    expect(byCode("STO")).toEqual(["XSTO", "SEK", "Europe/Stockholm"]);
    expect(byCode("CPH")).toEqual(["XCSE", "DKK", "Europe/Copenhagen"]);
    expect(byCode("OSL")).toEqual(["XOSL", "NOK", "Europe/Oslo"]);
    expect(byCode("VIE")).toEqual(["XWBO", "EUR", "Europe/Vienna"]);
    expect(byCode("LIS")).toEqual(["XLIS", "EUR", "Europe/Lisbon"]);
    expect(byCode("DUB")).toEqual(["XDUB", "EUR", "Europe/Dublin"]);
    expect(byCode("TSE")).toEqual(["XTKS", "JPY", "Asia/Tokyo"]);
    expect(byCode("HKEX")).toEqual(["XHKG", "HKD", "Asia/Hong_Kong"]);
    expect(byCode("ASX")).toEqual(["XASX", "AUD", "Australia/Sydney"]);
    // Lisbon and Dublin keep Euronext's hours, an hour behind Paris: the same instants.
    expect([VENUES.LIS?.open, VENUES.LIS?.close, VENUES.DUB?.earlyCloses["2026-12-24"]]).toEqual([
      "08:00",
      "16:30",
      "13:05",
    ]);
    expect(VENUES.DUB?.holidays).toBe(VENUES.PAR?.holidays);
  });
});

describe("missingSession: the session a listing's stored bars miss", () => {
  it("is the venue's last closed session when the last bar is older, else null", () => {
    // Sunday 29 November 2026: Nasdaq's last session was Friday the 27th, Tokyo's too.
    const sunday = new Date("2026-11-29T12:00:00Z");
    expect(missingSession("NASDAQ", "2026-11-27", sunday)).toBeNull();
    expect(missingSession("NASDAQ", "2026-11-26", sunday)).toBe("2026-11-27");
    expect(missingSession("TSE", "2026-11-26", sunday)).toBe("2026-11-27");
    // Friday 20th at 18:00 UTC: Nasdaq has not closed yet, Thursday's bar is its last.
    expect(missingSession("NASDAQ", "2026-11-19", new Date("2026-11-20T18:00:00Z"))).toBeNull();
  });
});
