import { describe, expect, it } from "vitest";
import { periodStart, periodStarts } from "../../src/domain/fundamentals/eodhd/convert-document";
import {
  basisOf,
  currencyOfFigure,
  figureCurrencies,
  tradingFiguresTimes,
} from "../../src/domain/fundamentals/figure-currency";
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
    expect(currencyOfFigure("eps_ttm", c)).toBe("GBP");
    // Into another currency (or into pounds at rate 1): the price figures from pence, the rest from pounds.
    const usd = figureCurrencies("GBP", { quote: "GBp", financial: "USD" }, null);
    expect(
      tradingFiguresTimes(
        { fifty_two_week_high: 260.4, market_cap: 2178442496, eps_ttm: 0.5, revenue_ttm: 1e9, pe_ratio: 12 },
        usd,
        "1.25",
      ),
    ).toEqual({ fifty_two_week_high: 3.255, market_cap: 2723053120, eps_ttm: 0.625, revenue_ttm: 1e9, pe_ratio: 12 });
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
    // 30 May less three months is 28 February (clamped), the period from 1 March.
    expect(periodStart("2025-05-30", "quarterly")).toBe("2025-03-01");
  });

  it("starts a 52- or 53-week year the day after the year before it ends", () => {
    const starts = periodStarts(["2023-09-30", "2022-09-24", "2021-09-25"], "annual");
    expect(Object.fromEntries(starts)).toEqual({
      "2021-09-25": "2020-09-26",
      "2022-09-24": "2021-09-26",
      "2023-09-30": "2022-09-25",
    });
    // A period whose predecessor ends far from a period before it (a gap in the rows) starts as periodStart says.
    expect(periodStarts(["2020-12-31", "2023-12-31"], "annual").get("2023-12-31")).toBe("2023-01-01");
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
