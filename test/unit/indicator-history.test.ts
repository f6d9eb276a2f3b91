import { describe, expect, it } from "vitest";
import { firstShown } from "../../src/domain/indicators/history";

const at = (...days: string[]) => days.map((d) => `${d}T00:00:00Z`);

describe("firstShown: the first bar an indicator answer shows of its history", () => {
  const daily = at("2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27");

  it("is the last `limit` bars from `from_date` on", () => {
    expect(firstShown(daily, undefined, 500)).toBe(0);
    expect(firstShown(daily, undefined, 2)).toBe(3);
    expect(firstShown(daily, "2026-11-25", 500)).toBe(2);
    expect(firstShown(daily, "2026-11-25", 1)).toBe(4);
    // A date between bars (a holiday) starts at the next bar; one after every bar shows none.
    expect(firstShown(at("2026-11-25", "2026-11-27"), "2026-11-26", 500)).toBe(1);
    expect(firstShown(daily, "2026-11-28", 500)).toBe(5);
  });

  it("shows the week or month that holds `from_date`", () => {
    // Weekly bars are dated by their first session (Tuesday 2026-11-03 after a Monday holiday).
    const weekly = at("2026-10-26", "2026-11-03", "2026-11-09");
    expect(firstShown(weekly, "2026-11-05", 500, "weekly")).toBe(1);
    expect(firstShown(weekly, "2026-11-02", 500, "weekly")).toBe(1);
    expect(firstShown(weekly, "2026-11-10", 500, "weekly")).toBe(2);
    const monthly = at("2026-09-01", "2026-10-01", "2026-11-02");
    expect(firstShown(monthly, "2026-11-15", 500, "monthly")).toBe(2);
    expect(firstShown(monthly, "2026-10-31", 500, "monthly")).toBe(1);
  });
});
