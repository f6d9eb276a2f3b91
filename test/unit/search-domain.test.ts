import { describe, expect, it } from "vitest";
import { isCatalogued, searchTerms, symbolForms } from "../../src/domain/search";

describe("searchTerms", () => {
  it("trims, collapses spaces, and reads LIKE's wildcards as themselves", () => {
    expect(searchTerms("  deutsche   bank ", 10)).toEqual({
      text: "deutsche bank",
      code: "DEUTSCHE BANK",
      prefix: "deutsche bank%",
      fuzzy: true,
      threshold: 0.4,
      limit: 10,
    });
    expect(searchTerms("50%_a\\b", 5).prefix).toBe("50\\%\\_a\\\\b%");
  });

  it("looks for near misses only from three characters on", () => {
    expect(searchTerms("ap", 10).fuzzy).toBe(false);
    expect(searchTerms("apl", 10).fuzzy).toBe(true);
  });
});

describe("isCatalogued", () => {
  const listings = [
    { ticker: "AAPL", exchange: "NASDAQ", delayedSymbol: null },
    { ticker: "RACE", exchange: "MIL", delayedSymbol: "RACE.MI" },
    { ticker: "MC.PA", exchange: "PAR", delayedSymbol: null },
  ];

  it("knows a listing by its recorded provider symbol or by its ticker on its venue", () => {
    expect(isCatalogued({ symbol: "AAPL", exchange: "NMS" }, listings)).toBe(true);
    expect(isCatalogued({ symbol: "RACE.MI", exchange: "MIL" }, listings)).toBe(true);
    expect(isCatalogued({ symbol: "MC.PA", exchange: "PAR" }, listings)).toBe(true);
  });

  it("does not take another venue's line under the same ticker for the catalogue's", () => {
    expect(isCatalogued({ symbol: "AAPL.MX", exchange: "MEX" }, listings)).toBe(false);
    expect(isCatalogued({ symbol: "APC.DE", exchange: "GER" }, listings)).toBe(false);
    expect(isCatalogued({ symbol: "APLE", exchange: "NYQ" }, listings)).toBe(false);
  });

  it("names a symbol with and without its venue suffix", () => {
    expect(symbolForms("race.mi")).toEqual(["RACE.MI", "RACE"]);
    expect(symbolForms("BRK-B")).toEqual(["BRK-B"]);
  });
});
