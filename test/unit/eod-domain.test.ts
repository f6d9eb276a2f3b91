import { describe, expect, it } from "vitest";
import { type Bar, dailyBarsFor, newestPeriods, resample } from "../../src/domain/bars";
import { barsToCsv } from "../../src/domain/csv";
import { isCalendarDate, tenYearsBefore, windowOf } from "../../src/domain/periods";
import { makeBars } from "../helpers/factories";

const bar = (date: string, o: number, h: number, l: number, c: number, v: number): Bar => ({
  date,
  open: o,
  high: h,
  low: l,
  close: c,
  adjClose: c - 1,
  volume: v,
});

describe("the newest weeks and months from the newest daily bars", () => {
  // Two years of weekdays with gaps: a holiday week, a month with a two-week halt, a weekend bar.
  const all = makeBars(520, { start: "2024-01-01" }).filter(
    (b) => !(b.date >= "2024-12-23" && b.date <= "2024-12-27") && !(b.date >= "2025-03-10" && b.date <= "2025-03-21"),
  );
  all.push({ ...(all.at(-1) as Bar), date: "2025-12-27" }); // a Saturday session
  all.sort((a, b) => (a.date < b.date ? -1 : 1));

  it("match resampling every bar, whatever the read cuts", () => {
    for (const resolution of ["weekly", "monthly"] as const)
      for (const periods of [1, 2, 5, 13, 20, 60]) {
        const read = dailyBarsFor(periods, resolution);
        const newest = all.slice(-read);
        const got = newestPeriods(newest, resolution, periods, newest.length === read);
        expect(got, `${resolution} ${periods}`).toEqual(resample(all, resolution).slice(-periods));
      }
  });

  it("keep a short history whole: a read below its limit is every bar", () => {
    const short = all.slice(-30);
    expect(newestPeriods(short, "monthly", 12, false)).toEqual(resample(short, "monthly"));
    // Had the oldest month been kept from a cut read, it would be short: it is left out.
    const cut = all.slice(-dailyBarsFor(2, "monthly"));
    expect(resample(cut, "monthly")[0]).not.toEqual(resample(all, "monthly").at(-resample(cut, "monthly").length));
  });
});

describe("resample", () => {
  const days = [
    bar("2026-01-29", 10, 12, 9, 11, 100), // Thursday
    bar("2026-01-30", 11, 13, 10, 12, 200), // Friday
    bar("2026-02-02", 12, 15, 11, 14, 300), // Monday
    bar("2026-02-03", 14, 14.5, 8, 9, 400),
    bar("2026-02-06", 9, 10, 8.5, 10, 500), // Friday
  ];

  it("builds weekly bars dated by the first session of the ISO week", () => {
    expect(resample(days, "weekly")).toEqual([
      { date: "2026-01-29", open: 10, high: 13, low: 9, close: 12, adjClose: 11, volume: 300 },
      { date: "2026-02-02", open: 12, high: 15, low: 8, close: 10, adjClose: 9, volume: 1200 },
    ]);
  });

  it("builds monthly bars and leaves the input untouched", () => {
    const before = JSON.stringify(days);
    expect(resample(days, "monthly")).toEqual([
      { date: "2026-01-29", open: 10, high: 13, low: 9, close: 12, adjClose: 11, volume: 300 },
      { date: "2026-02-02", open: 12, high: 15, low: 8, close: 10, adjClose: 9, volume: 1200 },
    ]);
    expect(JSON.stringify(days)).toBe(before);
    expect(resample(days, "daily")).toEqual(days);
  });

  it("splits a week that spans a year end into one weekly bar", () => {
    const w = resample([bar("2025-12-31", 1, 2, 0.5, 1.5, 1), bar("2026-01-02", 1.5, 3, 1, 2, 2)], "weekly");
    expect(w).toHaveLength(1);
    expect(w[0]).toMatchObject({ date: "2025-12-31", high: 3, close: 2, volume: 3 });
  });
});

describe("periods", () => {
  it("maps each period to its window", () => {
    expect(windowOf("1y", "2026-11-25")).toEqual({ from: "2025-11-25", to: null, lastBars: null, resolution: "daily" });
    expect(windowOf("1mo", "2026-03-31").from).toBe("2026-02-28");
    expect(windowOf("6mo", "2024-08-31").from).toBe("2024-02-29");
    expect(windowOf("ytd", "2026-11-25").from).toBe("2026-01-01");
    expect(windowOf("5d", "2026-11-25")).toMatchObject({ from: null, lastBars: 5 });
    expect(windowOf("weekly", "2026-11-25")).toMatchObject({ from: null, resolution: "weekly" });
    expect(windowOf("max", "2026-11-25")).toMatchObject({ from: null, lastBars: null, resolution: "daily" });
    expect(tenYearsBefore("2026-11-25")).toBe("2016-11-25");
  });

  it("knows real calendar dates", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2026-02-29")).toBe(false);
    expect(isCalendarDate("2026-13-01")).toBe(false);
    expect(isCalendarDate("26-01-01")).toBe(false);
  });
});

describe("CSV", () => {
  it("has the spec's header and one line per bar", () => {
    expect(barsToCsv([bar("2026-01-29", 10.5, 12, 9, 11.25, 100)])).toBe(
      "Date,Open,High,Low,Close,Adj Close,Volume\n2026-01-29,10.5,12,9,11.25,10.25,100\n",
    );
  });
});
