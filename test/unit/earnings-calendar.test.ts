import { describe, expect, it } from "vitest";
import { calendarRows } from "../../src/domain/earnings-calendar";
import { readSummary } from "../../src/domain/fundamentals/summary-schema";
import recorded from "../fixtures/recorded/delayed_provider/quoteSummary-AAPL-all.json";

type Json = Record<string, unknown>;
const result = (recorded.response.body as { quoteSummary: { result: Json[] } }).quoteSummary.result[0] as Json;
const events = (result.calendarEvents as { earnings: Json }).earnings;
const day = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);

describe("the earnings calendar read from the provider's recorded quoteSummary (AAPL, February 2025)", () => {
  const { summary, drifts } = readSummary("delayed_provider", result);

  it("reads every calendar field it reads without drift", () => {
    expect(drifts.filter((d) => d.path.includes("calendarEvents"))).toEqual([]);
  });

  it("gives the last call held (the December quarter's) and the coming report's range with its estimates", () => {
    const [call] = events.earningsCallDate as number[];
    const [first, last] = events.earningsDate as number[];
    expect(calendarRows(summary)).toEqual([
      {
        periodEnd: "2024-12-31",
        reportDate: day(call as number),
        reportDateTo: null,
        epsEstimate: null,
        epsLow: null,
        epsHigh: null,
        revenueEstimate: null,
        revenueLow: null,
        revenueHigh: null,
      },
      {
        // The trend's current quarter ("0q") is the one the coming report covers.
        periodEnd: "2025-03-31",
        reportDate: day(first as number),
        reportDateTo: day(last as number),
        epsEstimate: events.earningsAverage,
        epsLow: events.earningsLow,
        epsHigh: events.earningsHigh,
        revenueEstimate: events.revenueAverage,
        revenueLow: events.revenueLow,
        revenueHigh: events.revenueHigh,
      },
    ]);
    expect(day(call as number)).toBe("2025-01-30");
    expect([day(first as number), day(last as number)]).toEqual(["2025-04-30", "2025-05-05"]);
  });

  it("leaves out a date that cannot be its quarter's report, and names a set day without a range", () => {
    const at = (d: string) => Date.parse(`${d}T21:00:00Z`) / 1000;
    const withEarnings = (earnings: Json) => ({
      ...summary,
      calendarEvents: { earnings: { ...(summary.calendarEvents as { earnings: Json }).earnings, ...earnings } },
    });
    // A call five months after the newest quarter reported, and a report a year after its quarter.
    expect(
      calendarRows(withEarnings({ earningsCallDate: [at("2025-06-15")], earningsDate: [at("2026-03-31")] })),
    ).toEqual([]);
    const set = calendarRows(withEarnings({ earningsDate: [at("2025-05-01")] })).at(-1);
    expect(set).toMatchObject({ periodEnd: "2025-03-31", reportDate: "2025-05-01", reportDateTo: null });
  });
});
