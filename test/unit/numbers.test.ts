import { describe, expect, it } from "vitest";
import { DAY_MS } from "../../src/domain/instants";
import { decimalOrNull, finiteOrNull } from "../../src/domain/numbers";

describe("the small readings of numbers and days", () => {
  it("keeps a finite number, and nothing else, as a provider's field", () => {
    expect(
      [1.5, 0, -2, Number.NaN, Number.POSITIVE_INFINITY, "1.5", null, undefined, { raw: 1 }].map(finiteOrNull),
    ).toEqual([1.5, 0, -2, null, null, null, null, null, null]);
  });

  it("reads a stored decimal's text as the nearest double, null staying null", () => {
    expect(["12.34000000", "0.1", 7, null, undefined].map(decimalOrNull)).toEqual([12.34, 0.1, 7, null, null]);
  });

  it("counts a UTC day in milliseconds", () => {
    expect(Date.parse("2026-11-30T00:00:00Z") - Date.parse("2026-11-29T00:00:00Z")).toBe(DAY_MS);
  });
});
