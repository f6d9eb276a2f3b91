import { describe, expect, it } from "vitest";
import { compareListings, preferredListing } from "../../src/domain/listing-choice";

describe("listing choice", () => {
  it("puts the primary listing first, then currency, then exchange, unknown exchange last", () => {
    const l = (id: string, isPrimary: boolean, currency: string, exchange: string | null) => ({
      id,
      isPrimary,
      currency,
      exchange,
    });
    const sorted = [
      l("a", false, "USD", "NYSE"),
      l("b", false, "EUR", null),
      l("c", false, "EUR", "AMS"),
      l("d", true, "USD", "NASDAQ"),
      l("e", false, "EUR", "XETRA"),
    ].sort(compareListings);
    expect(sorted.map((x) => x.id)).toEqual(["d", "c", "e", "b", "a"]);
    expect(preferredListing([l("x", false, "GBP", "LSE"), l("y", false, "EUR", "XETRA")])?.id).toBe("y");
    expect(preferredListing([])).toBeUndefined();
  });
});
