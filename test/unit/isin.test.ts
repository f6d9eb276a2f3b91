import { describe, expect, it } from "vitest";
import { hasValidCheckDigit, isinCheckDigit, isinProblem, normaliseIsin } from "../../src/domain/isin";

describe("ISIN", () => {
  it("accepts two letters then ten letters or digits, case-insensitively", () => {
    expect(normaliseIsin(" us0378331005 ")).toBe("US0378331005");
    expect(normaliseIsin("DE000BASF111")).toBe("DE000BASF111");
    for (const bad of ["", "US037833100", "US03783310055", "1S0378331005", "U10378331005", "US03783310-5"]) {
      expect(normaliseIsin(bad), bad).toBeNull();
    }
  });

  it("computes the Luhn check digit over the letter-expanded payload", () => {
    expect(isinCheckDigit("US037833100")).toBe(5);
    expect(isinCheckDigit("DE000BASF11")).toBe(1);
    expect(isinCheckDigit("NL000023519")).toBe(0);
    expect(isinCheckDigit("IE00B4L5Y98")).toBe(3);
    expect(hasValidCheckDigit("US0378331005")).toBe(true);
    expect(hasValidCheckDigit("US0378331006")).toBe(false);
    expect(hasValidCheckDigit("US037833100A")).toBe(false);
  });
});

describe("isinProblem", () => {
  it("is null for a valid ISIN in any letter case, and says what is wrong otherwise", () => {
    expect(isinProblem("US0378331005")).toBeNull();
    expect(isinProblem("nl0011585146")).toBeNull();
    expect(isinProblem("US0378331006")).toBe("US0378331006 is no ISIN: its check digit should be 5, not 6");
    expect(isinProblem("US03783310")).toContain("expected two letters followed by ten letters or digits");
  });
});
