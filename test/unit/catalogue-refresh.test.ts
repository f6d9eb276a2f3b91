import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  dueScope,
  REFRESH_VENUES,
  requestedScope,
  retryDelaySeconds,
  SETTLE_MS,
  verdictOf,
} from "../../src/domain/catalogue-refresh";
import {
  CALENDAR_YEARS,
  closeOf,
  isTradingDay,
  lastClosedSession,
  localDate,
  localInstant,
  openOf,
  UNKNOWN_VENUE,
  VENUES,
  venueOf,
} from "../../src/domain/venues";
import { REFRESH_MAX_ATTEMPTS } from "../../src/services/catalogue/refresh/consume-refresh";

const DAY = 86_400_000;
const venue = (code: string) => {
  const v = VENUES[code];
  if (!v) throw new Error(`no venue ${code}`);
  return v;
};
const daysOf = (year: string) => {
  const out: string[] = [];
  for (let t = Date.parse(`${year}-01-01T00:00:00Z`); t < Date.parse(`${Number(year) + 1}-01-01T00:00:00Z`); t += DAY)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
};

describe("the venues' calendars", () => {
  it("place local times in summer and in winter", () => {
    expect(localInstant("2026-07-01", "16:00", "America/New_York").toISOString()).toBe("2026-07-01T20:00:00.000Z");
    expect(localInstant("2026-12-01", "16:00", "America/New_York").toISOString()).toBe("2026-12-01T21:00:00.000Z");
    expect(localInstant("2026-03-30", "17:30", "Europe/Berlin").toISOString()).toBe("2026-03-30T15:30:00.000Z");
    expect(localInstant("2026-03-27", "17:30", "Europe/Berlin").toISOString()).toBe("2026-03-27T16:30:00.000Z");
    expect(localInstant("2026-10-26", "16:30", "Europe/London").toISOString()).toBe("2026-10-26T16:30:00.000Z");
  });

  it("know holidays and early closes", () => {
    expect(isTradingDay(venue("NYSE"), "2026-11-26")).toBe(false);
    expect(closeOf(venue("NYSE"), "2026-11-27").toISOString()).toBe("2026-11-27T18:00:00.000Z");
    expect(isTradingDay(venue("XETRA"), "2026-12-24")).toBe(false);
    expect(closeOf(venue("XETRA"), "2026-12-30").toISOString()).toBe("2026-12-30T13:00:00.000Z");
    expect(isTradingDay(venue("LSE"), "2026-12-28")).toBe(false);
    expect(closeOf(venue("LSE"), "2026-12-31").toISOString()).toBe("2026-12-31T12:30:00.000Z");
    expect(venueOf("xetra").code).toBe("XETRA");
    expect(venueOf(null)).toBe(UNKNOWN_VENUE);
    expect(venueOf("TEST")).toBe(UNKNOWN_VENUE);
  });

  it("name the last session that has closed", () => {
    const xetra = venue("XETRA");
    expect(lastClosedSession(xetra, new Date("2026-12-28T07:00:00Z"))).toBe("2026-12-23");
    expect(lastClosedSession(xetra, new Date("2026-11-27T16:29:00Z"))).toBe("2026-11-26");
    expect(lastClosedSession(xetra, new Date("2026-11-27T16:30:00Z"))).toBe("2026-11-27");
    const nyse = venue("NYSE");
    expect(lastClosedSession(nyse, new Date("2026-11-27T06:42:00Z"))).toBe("2026-11-25");
    expect(lastClosedSession(nyse, new Date("2026-11-27T18:00:00Z"))).toBe("2026-11-27");
  });

  it("date a session by the venue's local day, a day ahead of UTC in Tokyo and Sydney", () => {
    const tse = venue("TSE");
    // Monday 30 November 2026 begins in Tokyo (UTC+9) at 15:00 UTC on the 29th; it closes at 15:30 JST, 06:30 UTC.
    expect(localDate(tse, new Date("2026-11-29T15:00:00Z"))).toBe("2026-11-30");
    expect(closeOf(tse, "2026-11-30").toISOString()).toBe("2026-11-30T06:30:00.000Z");
    expect(lastClosedSession(tse, new Date("2026-11-30T07:00:00Z"))).toBe("2026-11-30");
    expect(lastClosedSession(tse, new Date("2026-11-30T05:00:00Z"))).toBe("2026-11-27");
    // Constitution Memorial Day fell on Sunday 3 May 2026: Tokyo is closed on Wednesday the 6th instead.
    expect(isTradingDay(tse, "2026-05-06")).toBe(false);
    expect(lastClosedSession(tse, new Date("2026-05-07T05:00:00Z"))).toBe("2026-05-01");
    expect(lastClosedSession(tse, new Date("2026-05-07T07:00:00Z"))).toBe("2026-05-07");
    const asx = venue("ASX");
    // Sydney in summer time (UTC+11): 1 December begins at 13:00 UTC on 30 November, closes at 05:00 UTC.
    expect(localDate(asx, new Date("2026-11-30T13:00:00Z"))).toBe("2026-12-01");
    expect(localDate(asx, new Date("2026-11-30T12:59:00Z"))).toBe("2026-11-30");
    expect(lastClosedSession(asx, new Date("2026-12-01T04:59:00Z"))).toBe("2026-11-30");
    expect(lastClosedSession(asx, new Date("2026-12-01T05:00:00Z"))).toBe("2026-12-01");
    // In winter (UTC+10) it closes at 06:00 UTC; on Christmas Eve at 14:10 (03:10 UTC).
    expect(closeOf(asx, "2026-07-01").toISOString()).toBe("2026-07-01T06:00:00.000Z");
    expect(closeOf(asx, "2026-12-24").toISOString()).toBe("2026-12-24T03:10:00.000Z");
  });

  it("know Hong Kong's half days and Toronto's own holidays", () => {
    const hk = venue("HKEX");
    // Christmas Eve: the morning session only, to 12:00 (04:00 UTC).
    expect(closeOf(hk, "2026-12-24").toISOString()).toBe("2026-12-24T04:00:00.000Z");
    expect(lastClosedSession(hk, new Date("2026-12-24T03:59:00Z"))).toBe("2026-12-23");
    expect(lastClosedSession(hk, new Date("2026-12-24T04:00:00Z"))).toBe("2026-12-24");
    // Lunar New Year 2026: a half day on its eve (Monday 16 February), then three days closed.
    expect(closeOf(hk, "2026-02-16").toISOString()).toBe("2026-02-16T04:00:00.000Z");
    expect(lastClosedSession(hk, new Date("2026-02-20T03:00:00Z"))).toBe("2026-02-16");
    const tsx = venue("TSX");
    // Victoria Day (Monday 18 May 2026): Toronto is closed, New York trades.
    expect(isTradingDay(tsx, "2026-05-18")).toBe(false);
    expect(isTradingDay(venue("NYSE"), "2026-05-18")).toBe(true);
    expect(lastClosedSession(tsx, new Date("2026-05-19T12:00:00Z"))).toBe("2026-05-15");
    expect(closeOf(tsx, "2026-05-19").toISOString()).toBe("2026-05-19T20:00:00.000Z");
    expect(closeOf(tsx, "2026-12-24").toISOString()).toBe("2026-12-24T18:00:00.000Z");
  });

  it("hold every venue's holidays for each calendar year, none on a weekend", () => {
    for (const v of Object.values(VENUES)) {
      for (const year of CALENDAR_YEARS) {
        const holidays = Object.keys(v.holidays).filter((d) => d.startsWith(year));
        expect(holidays.length, `${v.code} ${year}`).toBeGreaterThanOrEqual(3);
        for (const d of holidays)
          expect([0, 6], `${v.code} ${d}`).not.toContain(new Date(`${d}T00:00:00Z`).getUTCDay());
        const newYear = `${year}-01-01`;
        const weekend = [0, 6].includes(new Date(`${newYear}T00:00:00Z`).getUTCDay());
        if (!weekend) expect(v.holidays[newYear], `${v.code} ${newYear}`).toBe("New Year's Day");
      }
      expect(v.source.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});

describe("the scheduled refresh (the five-minute trigger)", () => {
  const previousTradingDay = (code: string, date: string) => {
    let d = date;
    do d = new Date(Date.parse(`${d}T00:00:00Z`) - DAY).toISOString().slice(0, 10);
    while (!isTradingDay(venue(code), d));
    return d;
  };

  // One test per venue: each checks every day of the calendar years, on every venue's schedule.
  it.each(Object.keys(VENUES))(
    "makes %s's session due half an hour after its close, on every trading day, summer and winter",
    (code) => {
      const v = venue(code);
      for (const date of CALENDAR_YEARS.flatMap(daysOf)) {
        if (!isTradingDay(v, date)) continue;
        const covered = { [code]: previousTradingDay(code, date) };
        const due = closeOf(v, date).getTime() + SETTLE_MS;
        expect(dueScope(new Date(due), covered).sessions[code], `${code} ${date}`).toBe(date);
        expect(dueScope(new Date(due - 60_000), covered).sessions[code], `${code} ${date}`).toBeUndefined();
        // Due before the venue's next open: a refresh never races the next session.
        expect(due, `${code} ${date}`).toBeLessThan(openOf(v, addDay(date)).getTime());
      }
    },
  );

  it("follows summer time and early closes", () => {
    const covered = { XETRA: "2026-06-30", NYSE: "2026-11-25" };
    expect(dueScope(new Date("2026-07-01T15:59:00Z"), covered).sessions.XETRA).toBeUndefined();
    expect(dueScope(new Date("2026-07-01T16:00:00Z"), covered).sessions.XETRA).toBe("2026-07-01");
    // The day after Thanksgiving closes at 13:00 in New York (18:00 UTC).
    expect(dueScope(new Date("2026-11-27T18:29:00Z"), covered).sessions.NYSE).toBeUndefined();
    expect(dueScope(new Date("2026-11-27T18:30:00Z"), covered).sessions.NYSE).toBe("2026-11-27");
  });

  it("makes Tokyo's and Sydney's sessions due on their own day, and says when their day has begun before UTC's", () => {
    // Tokyo closes at 06:30 UTC: its session is due at 07:00 UTC the same day.
    expect(dueScope(new Date("2026-11-30T06:59:00Z"), { TSE: "2026-11-27" }).sessions.TSE).toBeUndefined();
    expect(dueScope(new Date("2026-11-30T07:00:00Z"), { TSE: "2026-11-27" }).sessions.TSE).toBe("2026-11-30");
    expect(dueScope(new Date("2026-05-06T08:00:00Z"), { TSE: "2026-05-01" }).skipped.TSE).toBe(
      "2026-05-06: holiday: Constitution Memorial Day (substitute holiday)",
    );
    // Sydney's Tuesday 1 December closes at 05:00 UTC, due at 05:30; at 23:00 UTC on 30 November it has begun.
    expect(dueScope(new Date("2026-12-01T05:30:00Z"), { ASX: "2026-11-30" }).sessions.ASX).toBe("2026-12-01");
    expect(dueScope(new Date("2026-11-30T23:00:00Z"), { ASX: "2026-11-30" }).skipped.ASX).toBe(
      "2026-12-01: the session has not closed yet (or is settling)",
    );
    // Tokyo trades on Christmas Day.
    expect(dueScope(new Date("2026-12-25T17:00:00Z"), { TSE: "2026-12-24" }).sessions.TSE).toBe("2026-12-25");
  });

  it("leaves out a venue on its holiday or once refreshed, says why, and catches up a missed day", () => {
    const christmas = new Date("2026-12-25T17:00:00Z");
    const coveredAll = dueScope(christmas, {}).sessions;
    expect(coveredAll.XETRA).toBe("2026-12-23");
    expect(coveredAll.PAR).toBe("2026-12-24");
    const scope = dueScope(christmas, coveredAll);
    expect(scope.sessions).toEqual({});
    expect(scope.skipped.XETRA).toBe("2026-12-25: holiday: Christmas Day");
    expect(dueScope(new Date("2026-11-27T17:00:00Z"), { XETRA: "2026-11-27" }).skipped.XETRA).toBe(
      "refreshed to 2026-11-27",
    );
    // A day missed (a run going on at its close, a trigger lost) is caught up at the next tick.
    expect(dueScope(new Date("2026-11-30T08:00:00Z"), { XETRA: "2026-11-26" }).sessions.XETRA).toBe("2026-11-27");
  });

  it("covers every venue once, and brings every venue to its last close when asked", () => {
    expect([...REFRESH_VENUES].sort()).toEqual([...Object.keys(VENUES), UNKNOWN_VENUE.code].sort());
    expect(new Set(REFRESH_VENUES).size).toBe(REFRESH_VENUES.length);
    expect(requestedScope(["XETRA", "NYSE"], new Date("2026-12-24T17:00:00Z"))).toEqual({
      sessions: { XETRA: "2026-12-23", NYSE: "2026-12-23" },
      skipped: {},
    });
  });
});

describe("an attempt at a listing", () => {
  const failed = (transient: boolean) => ({
    status: "failed" as const,
    written: 0,
    errors: [
      { provider: "delayed_provider", message: "HTTP 500", transient },
      { provider: "stream_provider", message: "unknown symbol", transient: false },
    ],
  });

  it("is refreshed when bars were written, unchanged when nothing was new", () => {
    expect(verdictOf({ status: "ingested", written: 3, errors: [] }, 1, 4)).toEqual({
      done: true,
      outcome: "refreshed",
      reason: null,
    });
    expect(verdictOf({ status: "up_to_date", written: 0, errors: [] }, 1, 4)).toMatchObject({ outcome: "unchanged" });
  });

  it("is retried while a retry may mend it and attempts remain, then failed with the providers' reasons", () => {
    const reason = "delayed_provider: HTTP 500; stream_provider: unknown symbol";
    expect(verdictOf(failed(true), 1, 4)).toEqual({ done: false, reason });
    expect(verdictOf(failed(true), 3, 4)).toEqual({ done: false, reason });
    expect(verdictOf(failed(true), 4, 4)).toEqual({ done: true, outcome: "failed", reason });
    expect(verdictOf(failed(false), 1, 4)).toEqual({ done: true, outcome: "failed", reason });
  });

  it("waits longer before each retry", () => {
    expect([1, 2, 3].map((a) => retryDelaySeconds(a, 30))).toEqual([30, 90, 270]);
    expect(retryDelaySeconds(20, 30)).toBe(3600);
  });

  it("has as many deliveries as the queue's max_retries allows, plus the first", () => {
    const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
    const consumer = /\[\[queues\.consumers\]\]\s*queue = "catalogue-refresh"([\s\S]*?)(?:\n\n|\n#|$)/.exec(toml)?.[1];
    expect(consumer).toContain('dead_letter_queue = "catalogue-refresh-dead"');
    expect(Number(/max_retries = (\d+)/.exec(consumer ?? "")?.[1]) + 1).toBe(REFRESH_MAX_ATTEMPTS);
  });
});

const addDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
