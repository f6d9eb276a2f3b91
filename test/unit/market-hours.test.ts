import { describe, expect, it } from "vitest";
import {
  CALENDAR_THROUGH,
  catalogueVenue,
  closedThroughout,
  inSession,
  listedVenues,
  marketState,
  missingSessionsReason,
  nextTradingDay,
  secondsUntilChange,
  yearsShown,
} from "../../src/domain/market-hours";
import { VENUES, type Venue } from "../../src/domain/venues";

const at = (iso: string) => new Date(iso);
const XETRA = VENUES.XETRA as NonNullable<(typeof VENUES)["XETRA"]>;
const NYSE = VENUES.NYSE as NonNullable<(typeof VENUES)["NYSE"]>;
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe("a venue open or closed at an instant", () => {
  it("is open during its session, closing today and opening next on the next trading day", () => {
    // Friday 27 November 2026, 11:00 in Frankfurt (UTC+1).
    const s = marketState(XETRA, at("2026-11-27T10:00:00Z"));
    expect(s.isOpen).toBe(true);
    expect(iso(s.nextClose)).toBe("2026-11-27T16:30:00.000Z");
    expect(iso(s.nextOpen)).toBe("2026-11-30T08:00:00.000Z");
    expect(s.today).toMatchObject({ date: "2026-11-27", trading: true, closedReason: null, earlyClose: false });
  });

  it("before the open, the next session is today's", () => {
    const s = marketState(XETRA, at("2026-11-27T07:59:59Z"));
    expect(s.isOpen).toBe(false);
    expect([iso(s.nextOpen), iso(s.nextClose)]).toEqual(["2026-11-27T08:00:00.000Z", "2026-11-27T16:30:00.000Z"]);
  });

  it("is open at the opening instant itself and closed at the closing instant", () => {
    expect(marketState(XETRA, at("2026-11-27T08:00:00Z")).isOpen).toBe(true);
    expect(marketState(XETRA, at("2026-11-27T16:30:00Z")).isOpen).toBe(false);
  });

  it("reads today in the venue's time zone: 02:00 UTC on the 28th is still the 27th in New York", () => {
    const s = marketState(NYSE, at("2026-11-28T02:00:00Z"));
    expect(s.today).toMatchObject({ date: "2026-11-27", trading: true, earlyClose: true });
    expect(s.isOpen).toBe(false);
    expect(iso(s.nextOpen)).toBe("2026-11-30T14:30:00.000Z");
  });

  it("is closed on a holiday, names it, and skips the holidays and the weekend after it", () => {
    // Christmas Eve and Christmas Day are Xetra holidays, then a weekend.
    const s = marketState(XETRA, at("2026-12-24T10:00:00Z"));
    expect(s.isOpen).toBe(false);
    expect(s.today).toMatchObject({ trading: false, closedReason: "holiday: Christmas Eve", open: null, close: null });
    expect(iso(s.nextOpen)).toBe("2026-12-28T08:00:00.000Z");
    expect(nextTradingDay(XETRA, "2026-12-23")).toBe("2026-12-28");
  });

  it("knows an early close: open until 13:00 in New York the day after Thanksgiving, closed after", () => {
    const during = marketState(NYSE, at("2026-11-27T17:30:00Z"));
    expect(during.isOpen).toBe(true);
    expect(during.today.earlyClose).toBe(true);
    expect(iso(during.nextClose)).toBe("2026-11-27T18:00:00.000Z");
    const after = marketState(NYSE, at("2026-11-27T18:30:00Z"));
    expect(after.isOpen).toBe(false);
    expect(iso(after.nextOpen)).toBe("2026-11-30T14:30:00.000Z");
    expect(marketState(NYSE, at("2026-11-26T15:00:00Z")).today.closedReason).toBe("holiday: Thanksgiving Day");
  });

  it("follows summer time: the New York open is 13:30 UTC after 14 March 2027, 14:30 before", () => {
    expect(iso(marketState(NYSE, at("2027-03-12T12:00:00Z")).nextOpen)).toBe("2027-03-12T14:30:00.000Z");
    expect(iso(marketState(NYSE, at("2027-03-15T12:00:00Z")).nextOpen)).toBe("2027-03-15T13:30:00.000Z");
  });

  it("holds Hong Kong's half day to the morning session, and its lunch hour as in session", () => {
    const hk = VENUES.HKEX as Venue;
    // Christmas Eve 2026, 11:00 in Hong Kong (UTC+8): open until 12:00.
    const s = marketState(hk, at("2026-12-24T03:00:00Z"));
    expect(s.isOpen).toBe(true);
    expect(s.today).toMatchObject({ date: "2026-12-24", earlyClose: true });
    expect(iso(s.nextClose)).toBe("2026-12-24T04:00:00.000Z");
    // Christmas Day is a holiday; the next session is Monday 28 December, 09:30 local.
    expect(iso(marketState(hk, at("2026-12-24T05:00:00Z")).nextOpen)).toBe("2026-12-28T01:30:00.000Z");
    // One session from the morning open to the afternoon close: 12:30 on a regular day counts as in it.
    expect(inSession(hk, at("2026-12-23T04:30:00Z"))).toBe(true);
  });

  it("reads the code with any case and spaces, and knows no other (not the placeholder OTHER)", () => {
    expect(catalogueVenue(" xetra ")?.code).toBe("XETRA");
    expect(catalogueVenue("NOPE")).toBeUndefined();
    expect(catalogueVenue("OTHER")).toBeUndefined();
    expect(catalogueVenue(null)).toBeUndefined();
    expect(listedVenues().map((v) => v.code)).toHaveLength(22);
    expect(listedVenues().every((v) => /^[A-Z]{4}$/.test(v.mic ?? ""))).toBe(true);
  });
});

describe("the calendar years shown and how long an answer holds", () => {
  it("shows this year and the next as far as the calendars go, and says which are missing", () => {
    expect(yearsShown(XETRA, at("2026-11-27T10:00:00Z"))).toEqual({ shown: ["2026", "2027"], missing: [] });
    expect(yearsShown(XETRA, at("2027-06-01T10:00:00Z"))).toEqual({ shown: ["2027"], missing: ["2028"] });
    expect(CALENDAR_THROUGH).toBe("2027-12-31");
  });

  it("takes this year in the venue's time zone: New Year in UTC is still 2026 in New York", () => {
    expect(yearsShown(NYSE, at("2027-01-01T03:00:00Z"))).toEqual({ shown: ["2026", "2027"], missing: [] });
    expect(yearsShown(XETRA, at("2027-01-01T03:00:00Z"))).toEqual({ shown: ["2027"], missing: ["2028"] });
  });

  it("holds until the first open or close among the venues", () => {
    const t = at("2026-11-27T16:00:00Z");
    // Xetra closes at 16:30 UTC, New York at its early close 18:00 UTC.
    expect(secondsUntilChange([marketState(XETRA, t), marketState(NYSE, t)], t)).toBe(1800);
    expect(secondsUntilChange([], t)).toBe(86_400);
  });
});

describe("a window the venue was closed throughout", () => {
  it("lists each day with why, for holidays and a weekend in a row", () => {
    expect(closedThroughout(XETRA, "2026-12-24", "2026-12-27")).toEqual([
      { date: "2026-12-24", reason: "holiday: Christmas Eve" },
      { date: "2026-12-25", reason: "holiday: Christmas Day" },
      { date: "2026-12-26", reason: "weekend" },
      { date: "2026-12-27", reason: "weekend" },
    ]);
  });

  it("is no closure when one day of it traded, on this venue's calendar and not another's", () => {
    // New York trades on 24 December 2026 (an early close); Xetra does not.
    expect(closedThroughout(NYSE, "2026-12-24", "2026-12-27")).toBeNull();
    expect(closedThroughout(XETRA, "2026-12-23", "2026-12-27")).toBeNull();
    expect(closedThroughout(XETRA, "2026-12-28", "2026-12-27")).toBeNull();
  });
});

describe("inSession", () => {
  it("is true from the open to the close of a trading day, an early close included, and false on a weekend", () => {
    const nasdaq = VENUES.NASDAQ as Venue;
    expect(inSession(nasdaq, new Date("2026-11-25T14:30:00Z"))).toBe(true);
    expect(inSession(nasdaq, new Date("2026-11-25T14:29:00Z"))).toBe(false);
    expect(inSession(nasdaq, new Date("2026-11-25T20:59:00Z"))).toBe(true);
    expect(inSession(nasdaq, new Date("2026-11-25T21:00:00Z"))).toBe(false);
    // The day after Thanksgiving closes at 13:00 New York time.
    expect(inSession(nasdaq, new Date("2026-11-27T17:59:00Z"))).toBe(true);
    expect(inSession(nasdaq, new Date("2026-11-27T18:00:00Z"))).toBe(false);
    expect(inSession(nasdaq, new Date("2026-11-28T15:00:00Z"))).toBe(false);
    expect(inSession(nasdaq, new Date("2026-11-26T15:00:00Z"))).toBe(false);
  });
});

describe("missingSessionsReason", () => {
  const nasdaq = VENUES.NASDAQ as Venue;

  it("names the sessions a venue held, with early closes; null when it held none", () => {
    expect(missingSessionsReason(nasdaq, "2026-11-27", "2026-11-27")).toBe(
      "Nasdaq Stock Market held a session on 2026-11-27 (early close at 13:00) and no provider has a bar for it",
    );
    expect(missingSessionsReason(nasdaq, "2026-11-26", "2026-11-26")).toBeNull();
    expect(missingSessionsReason(nasdaq, "2026-11-28", "2026-11-29")).toBeNull();
  });

  it("counts the sessions past the five it names, and says when a year's holidays are unknown", () => {
    expect(missingSessionsReason(nasdaq, "2026-06-01", "2026-06-12")).toBe(
      "Nasdaq Stock Market held 10 sessions on 2026-06-01, 2026-06-02, 2026-06-03, 2026-06-04, 2026-06-05 and 5 more and no provider has a bar for them",
    );
    expect(missingSessionsReason(nasdaq, "2028-03-06", "2028-03-06")).toContain("holidays unknown");
  });
});
