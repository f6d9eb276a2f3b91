import { describe, expect, it } from "vitest";
import { periodStart } from "../../src/domain/fundamentals/eodhd/convert-document";
import { basisOf, currencyOfFigure, figureCurrencies } from "../../src/domain/fundamentals/figure-currency";
import { averageRate, EuroRateBook } from "../../src/domain/fx/rates";

describe("figure currencies", () => {
  it("puts statements' figures in the reporting currency and price figures in the trading one", () => {
    const c = figureCurrencies("USD", { quote: "USD", financial: "CNY" }, null);
    expect(c).toEqual({ trading: "USD", quoted: "USD", reporting: "CNY" });
    expect(currencyOfFigure("market_cap", c)).toBe("USD");
    expect(currencyOfFigure("eps_ttm", c)).toBe("USD");
    expect(currencyOfFigure("ebitda", c)).toBe("CNY");
    expect(currencyOfFigure("book_value_per_share", c)).toBe("CNY");
    expect(currencyOfFigure("pe_ratio", c)).toBeNull();
    expect(basisOf("shares_outstanding")).toBeNull();
  });

  it("quotes a pence line's per-share figures in pence and its market capitalisation in pounds", () => {
    const c = figureCurrencies("GBP", { quote: "GBp", financial: "GBP" }, null);
    expect(c).toEqual({ trading: "GBP", quoted: "GBp", reporting: "GBP" });
    expect(currencyOfFigure("fifty_two_week_high", c)).toBe("GBp");
    expect(currencyOfFigure("market_cap", c)).toBe("GBP");
    // A quote currency that is not a unit of the listing's is not trusted; the statements' own stands in.
    expect(figureCurrencies("EUR", { quote: "USD", financial: null }, "eur")).toEqual({
      trading: "EUR",
      quoted: "EUR",
      reporting: "EUR",
    });
  });
});

describe("periods and their average rates", () => {
  it("starts a month-end period on a month's first day, another the day after the same day earlier", () => {
    expect(periodStart("2025-12-31", "annual")).toBe("2025-01-01");
    expect(periodStart("2024-06-30", "quarterly")).toBe("2024-04-01");
    expect(periodStart("2024-02-29", "quarterly")).toBe("2023-12-01");
    expect(periodStart("2025-09-27", "annual")).toBe("2024-09-28");
  });

  it("averages the days with their own publication, crossed through the euro", () => {
    const rows = [
      ["2025-03-03", "USD", "1.05"],
      ["2025-03-04", "USD", "1.06"],
      ["2025-03-05", "USD", "1.08"],
      ["2025-03-03", "GBP", "0.84"],
      ["2025-03-04", "GBP", "0.84"],
      ["2025-03-05", "GBP", "0.85"],
    ].map(([day, currency, rate]) => ({
      day: day as string,
      currency: currency as string,
      rate: rate as string,
      source: "ecb",
    }));
    const book = new EuroRateBook(rows);
    // Saturday and Sunday carry Friday's publication: not counted.
    expect(averageRate(book, { base: "EUR", quote: "USD" }, "2025-03-01", "2025-03-05")).toEqual({
      rate: "1.063333333",
      days: 3,
      first: "2025-03-03",
      last: "2025-03-05",
      source: "ecb",
    });
    // (1.05/0.84 + 1.06/0.84 + 1.08/0.85) / 3, each leg crossed at 10 significant digits first.
    const cross = averageRate(book, { base: "GBP", quote: "USD" }, "2025-03-03", "2025-03-05");
    expect(cross?.rate).toBe("1.260830999");
    expect(averageRate(book, { base: "EUR", quote: "USD" }, "2025-04-01", "2025-04-05")).toBeNull();
  });
});
