import { describe, expect, it } from "vitest";
import { isYield } from "../../src/providers/macro/fred";

describe("the macro provider's observations", () => {
  it("takes a plain decimal percent within what a government yield has been, and skips everything else", () => {
    for (const v of ["4.12", "0", "-0.5", "15", " 4.63 "]) expect(isYield(v), v).toBe(true);
    for (const v of [".", "", "  ", "0x1A", "1e7", "-6", "26", "4,12", "NaN", "4.1234567"])
      expect(isYield(v), v).toBe(false);
  });
});
