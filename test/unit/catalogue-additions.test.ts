import { describe, expect, it } from "vitest";
import {
  choosePrimary,
  isStatedLine,
  listingCurrencyOf,
  medianTradedValue,
  type NewListing,
  placeLine,
  sameCompany,
} from "../../src/domain/catalogue-additions";
import { hasValidCheckDigit } from "../../src/domain/isin";
import { parseSuggestions } from "../../src/providers/scraped/businessinsider";
import { FULL_CATALOGUE } from "../../tools/db/seed-indices";
import { UNKNOWN_ISINS, WORLD, WORLD_SIZE, worldInstrument } from "../../tools/sandbox/world";
import bmwSearch from "../fixtures/recorded/delayed_provider/search-BMW-name.json";
import suggestAapl from "../fixtures/recorded/scraped_businessinsider/search-suggest-AAPL.json";

describe("placing a provider's line on a catalogue venue", () => {
  it("places each line of the real recorded search for BMW: Xetra kept, the venues the catalogue lacks refused by name", () => {
    const placed = bmwSearch.response.body.quotes.map((q) => {
      const p = placeLine({ symbol: q.symbol, exchange: q.exchange, name: q.longname ?? null, quoteType: q.quoteType });
      return [q.symbol, "venue" in p ? p.venue.code : p.refused];
    });
    expect(placed).toEqual([
      ["BMW.DE", "XETRA"],
      ["BMWD.XD", "BMWD.XD trades on DXE, a venue the catalogue does not support"],
      ["BMW3.MU", "BMW3.MU trades on MUN, a venue the catalogue does not support"],
      ["BMWKY", "BMWKY trades on PNK, a venue the catalogue does not support"],
      ["BMW.F", "BMW.F trades on FRA, a venue the catalogue does not support"],
      ["BMW3D.XD", "BMW3D.XD trades on DXE, a venue the catalogue does not support"],
    ]);
  });

  it("places the new venues by exchange code or suffix, and refuses other quote types and long tickers", () => {
    const at = (symbol: string, exchange: string | null, quoteType = "EQUITY") => {
      const p = placeLine({ symbol, exchange, name: null, quoteType });
      return "venue" in p ? `${p.venue.code} ${p.ticker}` : p.refused;
    };
    expect(at("7203.T", "JPX")).toBe("TSE 7203.T");
    expect(at("0700.HK", "HKG")).toBe("HKEX 0700.HK");
    expect(at("BHP.AX", null)).toBe("ASX BHP.AX");
    expect(at("ry.to", "TOR")).toBe("TSX RY.TO");
    expect(at("^GSPC", "SNP", "INDEX")).toBe("^GSPC is a index; the catalogue holds shares and ETFs");
    expect(at("ABCDEFGH.DE", "GER")).toBe("ABCDEFGH.DE has more than 10 characters, the longest ticker the API takes");
  });

  it("stores a London line in pounds when its chart quotes pence, a dollar line in dollars, and refuses a foreign sub-unit", () => {
    expect(listingCurrencyOf("GBp", "GBP")).toBe("GBP");
    expect(listingCurrencyOf("USD", "GBP")).toBe("USD");
    expect(listingCurrencyOf("JPY", "JPY")).toBe("JPY");
    expect(listingCurrencyOf("ZAc", "GBP")).toBeNull();
    expect(listingCurrencyOf(null, "EUR")).toBeNull();
  });
});

describe("the primary listing of a new instrument", () => {
  const l = (
    exchange: string,
    currency: string,
    countries: string[],
    venueCurrency: string,
    tradedValue: number,
  ): NewListing => ({
    ticker: `X.${exchange}`,
    exchange,
    currency,
    countries,
    venueCurrency,
    tradedValue,
  });

  it("is a share's home venue in its currency, even when another line trades more", () => {
    const xetra = l("XETRA", "EUR", ["DE"], "EUR", 5e6);
    const nyse = l("NYSE", "USD", ["US"], "USD", 9e9);
    expect(choosePrimary([nyse, xetra], "DE0007164600", "EQUITY")).toBe(xetra);
  });

  it("is the most traded line of a fund, or of a share with no line at home; ties by exchange code", () => {
    const lse = l("LSE", "USD", ["GB"], "GBP", 2e6);
    const xetra = l("XETRA", "EUR", ["DE"], "EUR", 3e6);
    expect(choosePrimary([lse, xetra], "IE00B5BMR087", "ETF")).toBe(xetra);
    expect(choosePrimary([lse, xetra], "US0378331005", "EQUITY")).toBe(xetra);
    const ams = l("AMS", "EUR", ["NL"], "EUR", 3e6);
    expect(choosePrimary([xetra, ams], "IE00B5BMR087", "ETF")).toBe(ams);
    expect(choosePrimary([], "IE00B5BMR087", "ETF")).toBeUndefined();
  });

  it("puts a line in the home country's currency before bigger numbers in another (no FX: yen never outweigh euros)", () => {
    const paris = l("PAR", "EUR", ["FR"], "EUR", 4e6);
    const tokyo = l("TSE", "JPY", ["JP"], "JPY", 6e8);
    expect(choosePrimary([tokyo, paris], "IE00B4L5Y983", "ETF", "EUR")).toBe(paris);
    expect(choosePrimary([tokyo, paris], "IE00B4L5Y983", "ETF", null)).toBe(tokyo);
  });

  it("weighs lines by their median traded value", () => {
    expect(medianTradedValue([])).toBe(0);
    expect(
      medianTradedValue([
        { close: 10, volume: 100 },
        { close: 10, volume: 300 },
        { close: 10, volume: 1_000_000 },
      ]),
    ).toBe(3000);
  });
});

describe("a name-search hit taken for the line a directory named", () => {
  it.each([
    ["IWDA.AS", "iShares Core MSCI World UCITS ETF", "IWDA", "iShares Core MSCI World UCITS ETF", true],
    ["SWDA.L", "iShares Core MSCI World UCITS ETF", "", "iShares Core MSCI World UCITS ETF", true],
    ["EIMI.L", "iShares Core MSCI EM IMI UCITS ETF", "", "iShares Core MSCI World UCITS ETF USD (Acc)", false],
    ["VWRA.L", "Vanguard FTSE All-World UCITS ETF (Acc)", "", "Vanguard FTSE All-World UCITS ETF (Dist)", false],
    ["APLE", "Apple Hospitality REIT, Inc.", "", "Apple Inc.", false],
    ["NOKIA.HE", "Nokia Oyj", "NOKIA", "Nokia Corporation", true],
  ])("%s (%s) for %s (%s): %s", (symbol, name, statedSymbol, statedName, same) => {
    expect(isStatedLine({ symbol, name }, { symbol: statedSymbol, name: statedName })).toBe(same);
  });
});

describe("one company's name in two sources", () => {
  it.each([
    ["SAP SE", "SAP SE O.N.", true],
    ["Apple Inc.", "Apple Inc", true],
    ["Nokia Oyj", "NOKIA CORPORATION", true],
    ["Banco Santander, S.A.", "Sanofi", false],
    ["Aallon Group Oyj Registered Shs", "Apple Inc.", false],
    [null, "Apple Inc.", false],
  ])("%s and %s: %s", (a, b, same) => {
    expect(sameCompany(a, b)).toBe(same);
  });
});

describe("the directory that states ISINs", () => {
  it("reads the real recorded suggestions for AAPL: every row's ISIN, the page id before its first bar", () => {
    const rows = parseSuggestions(suggestAapl.response.body);
    expect(rows).toEqual([
      { name: "Apple Inc.", symbol: "AAPL", isin: "US0378331005", slug: "aapl" },
      { name: "Aallon Group Oyj Registered Shs", symbol: "", isin: "FI4000369608", slug: "aallon_group" },
      { name: "AAPKI Ventures Inc. Registered Shs", symbol: "PUSOF", isin: "CA00036H1001", slug: "aapki_ventures" },
      { name: "AUPLATA", symbol: "", isin: "FR0013410370", slug: "auplata_1" },
      { name: "Amplitude Surgical", symbol: "", isin: "FR0012789667", slug: "amplitude_surgical" },
    ]);
  });
});

describe("the sandbox's world", () => {
  it("holds WORLD_SIZE instruments with valid, distinct ISINs and symbols, none the seed catalogue's", () => {
    expect(WORLD).toHaveLength(WORLD_SIZE);
    expect(WORLD_SIZE).toBeGreaterThanOrEqual(10_000);
    const isins = new Set(WORLD.map((w) => w.isin));
    expect(isins.size).toBe(WORLD_SIZE);
    expect(WORLD.filter((w) => !hasValidCheckDigit(w.isin))).toEqual([]);
    const symbols = WORLD.flatMap((w) => w.lines.map((l) => l.symbol));
    expect(new Set(symbols).size).toBe(symbols.length);
    const seed = new Set(FULL_CATALOGUE.flatMap((i) => [i.isin, ...i.listings.map((l) => l.ticker)]));
    expect(symbols.filter((s) => seed.has(s))).toEqual([]);
    expect([...isins].filter((i) => seed.has(i))).toEqual([]);
    for (const u of UNKNOWN_ISINS) expect([hasValidCheckDigit(u), isins.has(u)]).toEqual([true, false]);
  });

  it("is the same world each time, over every supported venue and a few the catalogue lacks", () => {
    expect(worldInstrument(42)).toEqual(WORLD[42]);
    const venues = new Set(WORLD.flatMap((w) => w.lines.map((l) => l.exchange)));
    for (const code of ["TSE", "HKEX", "ASX", "TSX", "SIX", "LSE", "NASDAQ", "XETRA", "WSE", "NSI", "FRA"])
      expect(venues.has(code), code).toBe(true);
    expect(WORLD.filter((w) => !w.isinSearchable).length).toBe(WORLD_SIZE / 20);
  });
});
