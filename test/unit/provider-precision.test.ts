import { describe, expect, it } from "vitest";
import { float32Decimal, relativeError } from "../../src/domain/provider-precision";

describe("float32Decimal", () => {
  it("keeps every digit the float32 holds, whatever the price hint", () => {
    expect(float32Decimal(Math.fround(52.948 / 4), 2)).toBe(13.237);
    expect(float32Decimal(Math.fround(288.345), 2)).toBe(288.345);
    expect(float32Decimal(34.099998474121094, 2)).toBe(34.1);
    expect(float32Decimal(Math.fround(0.205))).toBe(0.205);
  });

  it("reads a large price the float32 cannot hold to the hint's decimals at the hint", () => {
    expect(Math.fround(154663.91)).toBe(154663.90625);
    expect(float32Decimal(154663.90625, 2)).toBe(154663.91);
    // Without a hint, the shortest decimal of that float32.
    expect(float32Decimal(154663.90625)).toBe(154663.9);
  });

  it("keeps a value that is no float32 whole (a provider that sends float64)", () => {
    expect(float32Decimal(13.2371234567, 2)).toBe(13.2371234567);
  });
});

describe("relativeError", () => {
  it("is a float32 step at full precision, half the hint's quantum for rounded prices", () => {
    expect(relativeError(100, "full")).toBe(2 ** -23);
    expect(relativeError(13.24, "price_hint")).toBeCloseTo(0.005 / 13.24, 12);
    expect(relativeError(13.2345, "price_hint")).toBeCloseTo(0.00005 / 13.2345, 12);
  });
});
