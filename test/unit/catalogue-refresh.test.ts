import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  REFRESH_TRIGGERS,
  REFRESH_VENUES,
  refreshScope,
  retryDelaySeconds,
  verdictOf,
} from "../../src/domain/catalogue-refresh";
import {
  CALENDAR_YEARS,
  closeOf,
  isTradingDay,
  lastClosedSession,
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

  it("hold every venue's holidays for each calendar year, none on a weekend", () => {
    for (const v of Object.values(VENUES)) {
      for (const year of CALENDAR_YEARS) {
        const holidays = Object.keys(v.holidays).filter((d) => d.startsWith(year));
        expect(holidays.length, `${v.code} ${year}`).toBeGreaterThanOrEqual(3);
        for (const d of holidays)
          expect([0, 6], `${v.code} ${d}`).not.toContain(new Date(`${d}T00:00:00Z`).getUTCDay());
        expect(v.holidays[`${year}-01-01`] ?? "weekend", v.code).toMatch(/New Year|weekend/);
      }
      expect(v.source.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});

describe("the refresh's Cron Triggers", () => {
  const fireAt = (cron: string, date: string) => {
    const [minute, hour, , , days] = cron.split(" ");
    expect(days).toBe("1-5");
    return new Date(`${date}T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00Z`);
  };

  it("fire on every trading day of each venue, after its close and before its next open, summer and winter", () => {
    for (const [cron, codes] of Object.entries(REFRESH_TRIGGERS)) {
      for (const code of codes) {
        const v = VENUES[code] ?? UNKNOWN_VENUE;
        for (const date of CALENDAR_YEARS.flatMap(daysOf)) {
          if (!isTradingDay(v, date)) continue;
          const fired = fireAt(cron, date);
          expect([0, 6], `${code} trades on a weekend day ${date}`).not.toContain(fired.getUTCDay());
          expect(fired.getTime() - closeOf(v, date).getTime(), `${code} ${date}`).toBeGreaterThanOrEqual(30 * 60_000);
          expect(fired.getTime(), `${code} ${date}`).toBeLessThan(openOf(v, addDay(date)).getTime());
          expect(refreshScope([code], fired, true).sessions[code], `${code} ${date}`).toBe(date);
        }
      }
    }
  });

  it("cover every venue once", () => {
    expect([...REFRESH_VENUES].sort()).toEqual([...Object.keys(VENUES), UNKNOWN_VENUE.code].sort());
    expect(new Set(REFRESH_VENUES).size).toBe(REFRESH_VENUES.length);
  });

  it("skip a venue's holiday when scheduled; a requested refresh brings it to its last session", () => {
    const christmasEve = new Date("2026-12-24T17:00:00Z");
    expect(refreshScope(["XETRA", "PAR"], christmasEve, true)).toEqual({
      sessions: { PAR: "2026-12-24" },
      skipped: { XETRA: "2026-12-24: holiday: Christmas Eve" },
    });
    expect(refreshScope(["XETRA"], christmasEve, false)).toEqual({ sessions: { XETRA: "2026-12-23" }, skipped: {} });
    // Thanksgiving's day after closes at 13:00 in New York: the 21:30 UTC trigger refreshes it.
    expect(refreshScope(["NYSE"], new Date("2026-11-27T21:30:00Z"), true).sessions).toEqual({ NYSE: "2026-11-27" });
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
