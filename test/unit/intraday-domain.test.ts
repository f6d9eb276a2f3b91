import { describe, expect, it } from "vitest";
import {
  coversWholeSession,
  type IntradayCandle,
  planIntraday,
  reachStart,
  resampleSession,
  sessionsIn,
  underWay,
} from "../../src/domain/intraday";
import { VENUES } from "../../src/domain/venues";
import recorded from "../fixtures/recorded/delayed_provider/chart-IBM-5m-5d.json";

const NYSE = VENUES.NYSE as NonNullable<typeof VENUES.NYSE>;
const NOW = new Date("2026-11-25T17:00:00Z");

const candle = (iso: string, close: number, volume = 10): IntradayCandle => ({
  start: new Date(iso),
  open: close - 1,
  high: close + 1,
  low: close - 2,
  close,
  volume,
  source: "delayed_provider",
});

describe("the intraday plan", () => {
  it("counts each interval's history back from now, a day short so a session's open is within it", () => {
    expect(reachStart(NYSE, "1m", NOW)).toBe("2026-10-27");
    expect(reachStart(NYSE, "15m", NOW)).toBe("2026-09-27");
    expect(reachStart(NYSE, "1h", NOW)).toBe("2024-11-26");
  });

  it("lists the sessions that have opened: no weekend, no holiday, not today before the open", () => {
    expect(sessionsIn(NYSE, "2026-11-20", "2026-11-27", NOW)).toEqual([
      "2026-11-20",
      "2026-11-23",
      "2026-11-24",
      "2026-11-25",
    ]);
    expect(sessionsIn(NYSE, "2026-11-25", "2026-11-25", new Date("2026-11-25T14:29:00Z"))).toEqual([]);
  });

  it("reads minutes where it can, the interval's own bars further back, and cuts minute requests to 7 days", () => {
    const sessions = sessionsIn(NYSE, "2026-09-21", "2026-11-25", NOW);
    const plan = planIntraday({
      venue: NYSE,
      interval: "15m",
      sessions,
      covered: new Set(["15m|2026-09-28"]),
      now: NOW,
    });
    expect(plan.fromBars).toEqual(sessions.filter((d) => d >= "2026-09-27" && d < "2026-10-27"));
    // Sessions beyond every history are read from whatever minutes the stream stored.
    expect(plan.fromMinutes).toEqual(sessions.filter((d) => d < "2026-09-27" || d >= "2026-10-27"));
    // 21 to 25 September are beyond the 15m history (from 27 September); the 28th is stored.
    expect(plan.beyond).toEqual(["2026-09-21", "2026-09-22", "2026-09-23", "2026-09-24", "2026-09-25"]);
    const fifteen = plan.fetches.filter((f) => f.interval === "15m");
    expect(fifteen).toHaveLength(1);
    expect(fifteen[0]?.days[0]).toBe("2026-09-29");
    const minutes = plan.fetches.filter((f) => f.interval === "1m");
    expect(minutes.map((f) => [f.days[0], f.days.at(-1)])).toEqual([
      ["2026-10-27", "2026-11-02"],
      ["2026-11-03", "2026-11-09"],
      ["2026-11-10", "2026-11-16"],
      ["2026-11-17", "2026-11-23"],
      ["2026-11-24", "2026-11-25"],
    ]);
  });

  it("never fetches a session stored whole, and prefers its minutes to coarser bars", () => {
    const plan = planIntraday({
      venue: NYSE,
      interval: "1h",
      sessions: ["2026-06-01", "2026-06-02"],
      covered: new Set(["1m|2026-06-01", "1h|2026-06-01", "1h|2026-06-02"]),
      now: NOW,
    });
    expect(plan).toEqual({ fromMinutes: ["2026-06-01"], fromBars: ["2026-06-02"], fetches: [], beyond: [] });
  });

  it("holds a session whole only when fetched an hour after its close", () => {
    expect(coversWholeSession(NYSE, "2026-11-24", new Date("2026-11-24T21:59:00Z"))).toBe(false);
    expect(coversWholeSession(NYSE, "2026-11-24", new Date("2026-11-24T22:00:00Z"))).toBe(true);
    // The day after Thanksgiving closes at 13:00 New York.
    expect(coversWholeSession(NYSE, "2026-11-27", new Date("2026-11-27T19:00:00Z"))).toBe(true);
    expect(underWay(NYSE, ["2026-11-25"], NOW)).toBe(true);
    expect(underWay(NYSE, ["2026-11-24", "2026-11-25"], NOW)).toBe(false);
  });
});

describe("resampling a session's candles", () => {
  it("counts buckets from the open: an early-closing day ends with its short last hour", () => {
    const open = new Date("2026-11-27T14:30:00Z");
    const minutes = [
      candle("2026-11-27T14:30:00Z", 100, 1),
      candle("2026-11-27T15:29:00Z", 105, 2),
      candle("2026-11-27T15:30:00Z", 103, 3),
      candle("2026-11-27T17:59:00Z", 99, 4),
    ];
    const hours = resampleSession(minutes, 60, open);
    expect(hours.map((h) => [h.start.toISOString(), h.open, h.high, h.low, h.close, h.volume])).toEqual([
      ["2026-11-27T14:30:00.000Z", 99, 106, 98, 105, 3],
      ["2026-11-27T15:30:00.000Z", 102, 104, 101, 103, 3],
      ["2026-11-27T17:30:00.000Z", 98, 100, 97, 99, 4],
    ]);
  });

  it("names every source of a bar's minutes", () => {
    const open = new Date("2026-11-25T14:30:00Z");
    const bars = resampleSession(
      [candle("2026-11-25T14:30:00Z", 1), { ...candle("2026-11-25T14:31:00Z", 2), source: "stream_provider" }],
      5,
      open,
    );
    expect(bars.map((b) => b.source)).toEqual(["delayed_provider+stream_provider"]);
  });

  it("counts its buckets from the open the real provider's recorded 5m bars start at (9:30 New York)", () => {
    const r = recorded.response.body.chart.result[0] as unknown as {
      timestamp: number[];
      indicators: { quote: { open: number[]; high: number[]; low: number[]; close: number[]; volume: number[] }[] };
      meta: { tradingPeriods: { start: number; end: number }[][] };
    };
    const q = r.indicators.quote[0] as (typeof r.indicators.quote)[number];
    const candles = r.timestamp.map((t, i) => ({
      start: new Date(t * 1000),
      open: q.open[i] as number,
      high: q.high[i] as number,
      low: q.low[i] as number,
      close: q.close[i] as number,
      volume: q.volume[i] as number,
      source: "delayed_provider",
    }));
    const first = r.meta.tradingPeriods[0]?.[0] as { start: number; end: number };
    const day = candles.filter((c) => c.start.getTime() / 1000 >= first.start && c.start.getTime() / 1000 < first.end);
    // The provider's 5m bars of a day start at the session's open by our calendar, 78 of them.
    expect(day[0]?.start.toISOString()).toBe("2026-07-06T13:30:00.000Z");
    expect(day).toHaveLength(78);
    const hours = resampleSession(day, 60, new Date(first.start * 1000));
    expect(hours.map((h) => h.start.toISOString().slice(11, 16))).toEqual([
      "13:30",
      "14:30",
      "15:30",
      "16:30",
      "17:30",
      "18:30",
      "19:30",
    ]);
    expect(hours[0]?.open).toBe(q.open[0]);
    expect(hours.at(-1)?.close).toBe(day.at(-1)?.close);
    expect(hours.reduce((a, h) => a + h.volume, 0)).toBe(day.reduce((a, c) => a + c.volume, 0));
  });
});
