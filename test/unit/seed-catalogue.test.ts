import { describe, expect, it } from "vitest";
import { hasValidCheckDigit } from "../../src/domain/isin";
import { SEED_CATALOGUE } from "../../tools/db/seed-catalogue";

const listings = SEED_CATALOGUE.flatMap((i) => i.listings.map((l) => ({ ...l, isin: i.isin, quoteType: i.quoteType })));

describe("seed catalogue", () => {
  it("has at least 60 instruments, each with a valid and unique ISIN", () => {
    expect(SEED_CATALOGUE.length).toBeGreaterThanOrEqual(60);
    const invalid = SEED_CATALOGUE.filter((i) => !hasValidCheckDigit(i.isin)).map((i) => i.isin);
    expect(invalid).toEqual([]);
    expect(new Set(SEED_CATALOGUE.map((i) => i.isin)).size).toBe(SEED_CATALOGUE.length);
  });

  it("gives shares a sector and an industry, and every instrument exactly one primary listing", () => {
    for (const i of SEED_CATALOGUE) {
      if (i.quoteType === "EQUITY") expect(i.sector && i.industry, i.isin).toBeTruthy();
      expect(
        i.listings.filter((l) => l.primary),
        i.isin,
      ).toHaveLength(1);
    }
  });

  it("covers NASDAQ, NYSE, Paris, Xetra, Amsterdam, Milan and ETFs", () => {
    const count = (pred: (l: (typeof listings)[number]) => boolean) => listings.filter(pred).length;
    expect(count((l) => l.exchange === "NASDAQ" && l.currency === "USD")).toBeGreaterThanOrEqual(10);
    expect(count((l) => l.exchange === "NYSE" && l.currency === "USD")).toBeGreaterThanOrEqual(10);
    expect(count((l) => l.ticker.endsWith(".PA") && l.currency === "EUR")).toBeGreaterThanOrEqual(10);
    expect(count((l) => l.ticker.endsWith(".DE") && l.currency === "EUR")).toBeGreaterThanOrEqual(10);
    expect(count((l) => l.ticker.endsWith(".AS"))).toBeGreaterThanOrEqual(3);
    expect(count((l) => l.ticker.endsWith(".MI"))).toBeGreaterThanOrEqual(3);
    expect(SEED_CATALOGUE.filter((i) => i.quoteType === "ETF").length).toBeGreaterThanOrEqual(4);
  });

  it("has an instrument listed in two currencies and a ticker borne by two listings", () => {
    expect(SEED_CATALOGUE.some((i) => new Set(i.listings.map((l) => l.currency)).size >= 2)).toBe(true);
    const byTicker = new Map<string, number>();
    for (const l of listings) byTicker.set(l.ticker, (byTicker.get(l.ticker) ?? 0) + 1);
    expect([...byTicker].filter(([, n]) => n >= 2).map(([t]) => t)).toContain("RACE");
    // Listings are unique by ticker, exchange and currency (the database's unique key).
    expect(new Set(listings.map((l) => `${l.ticker}|${l.exchange}|${l.currency}`)).size).toBe(listings.length);
  });
});
