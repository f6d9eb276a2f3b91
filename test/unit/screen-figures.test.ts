import { describe, expect, it } from "vitest";
import { figuresForListing, screenFiguresOf } from "../../src/domain/screen-figures";

describe("the figures a screen compares", () => {
  const figures = screenFiguresOf({ market_cap: 2.9e12, pe_ratio: 29.4, dividend_yield: 0.0051, beta: 1.2, name: "x" });

  it("are read from validated highlights, a missing or non-numeric one as unknown", () => {
    expect(figures).toEqual({ marketCap: 2.9e12, peRatio: 29.4, dividendYield: 0.0051 });
    expect(screenFiguresOf({ market_cap: "2.9T", pe_ratio: null })).toEqual({
      marketCap: null,
      peRatio: null,
      dividendYield: null,
    });
  });

  it("go under the listing's currency, a sub-unit quote's market capitalisation left unknown", () => {
    expect(figuresForListing("USD", "USD", figures)).toEqual({ currency: "USD", figures });
    expect(figuresForListing("GBp", "GBP", figures)).toEqual({
      currency: "GBP",
      figures: { ...figures, marketCap: null },
    });
    expect(figuresForListing(null, "EUR", figures)).toEqual({ currency: "EUR", figures });
    // A quote in another currency stays under its own: the listing's screen does not read it.
    expect(figuresForListing("USD", "EUR", figures)).toEqual({ currency: "USD", figures });
    const none = { marketCap: null, peRatio: null, dividendYield: null };
    expect(figuresForListing("USD", "USD", none)).toBeNull();
    expect(figuresForListing("GBp", "GBP", { ...none, marketCap: 1e9 })).toBeNull();
    expect(figuresForListing(null, null, figures)).toBeNull();
  });
});
