import { describe, expect, it } from "vitest";
import { indexKey } from "../../src/domain/indices";
import { hasValidCheckDigit } from "../../src/domain/isin";
import { FULL_CATALOGUE, INDEX_INSTRUMENTS, SEED_INDICES } from "../../tools/db/seed-indices";

const SUFFIX_OF: Record<string, RegExp> = {
  PAR: /\.PA$/,
  XETRA: /\.DE$/,
  AMS: /\.AS$/,
  MIL: /\.MI$/,
  MCE: /\.MC$/,
  BRU: /\.BR$/,
  HEL: /\.HE$/,
  NASDAQ: /^[A-Z]{1,5}$/,
};

describe("the index compositions (versioned seed data)", () => {
  it("hold the members each index has, each with a real ISIN (check digit verified), once", () => {
    const counts = Object.fromEntries(SEED_INDICES.map((i) => [i.code, i.members.length]));
    expect(counts).toMatchObject({ cac40: 40, dax: 40, ftsemib: 40, eurostoxx50: 50 });
    expect(counts.aex).toBeGreaterThanOrEqual(25);
    expect(counts.nasdaq100).toBeGreaterThanOrEqual(100);
    for (const index of SEED_INDICES) {
      const invalid = index.members.filter((m) => !hasValidCheckDigit(m.isin)).map((m) => m.isin);
      expect(invalid, index.code).toEqual([]);
      expect(new Set(index.members.map((m) => m.isin)).size, index.code).toBe(index.members.length);
      expect(index.asOf, index.code).toMatch(/^\d{4}-\d\d-\d\d$/);
      expect(index.source.length, index.code).toBeGreaterThan(20);
    }
  });

  it("name each member's listing on the index's exchange, in its currency", () => {
    for (const index of SEED_INDICES) {
      for (const m of index.members) {
        expect(m.ticker, `${index.code} ${m.isin}`).toMatch(SUFFIX_OF[m.exchange] ?? /^$/);
        expect(m.currency, m.ticker).toBe(m.exchange === "NASDAQ" ? "USD" : "EUR");
      }
    }
  });

  it("give weights as ratios where the source has them (the AEX's sum to about 1)", () => {
    const aex = SEED_INDICES.find((i) => i.code === "aex");
    const sum = (aex?.members ?? []).reduce((s, m) => s + (m.weight ?? 0), 0);
    expect(sum).toBeGreaterThan(0.95);
    expect(sum).toBeLessThanOrEqual(1.0001);
  });

  it("are found under aliases no two indices share", () => {
    const keys = SEED_INDICES.flatMap((i) => [...new Set([i.code, ...i.aliases].map(indexKey))]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(indexKey("CAC 40")).toBe("cac40");
    expect(indexKey("^FCHI")).toBe("fchi");
  });

  it("add the members the catalogue lacks to it: unique ISINs and listings, one primary listing each", () => {
    expect(INDEX_INSTRUMENTS.length).toBeGreaterThan(150);
    expect(new Set(FULL_CATALOGUE.map((i) => i.isin)).size).toBe(FULL_CATALOGUE.length);
    const listings = FULL_CATALOGUE.flatMap((i) => i.listings.map((l) => `${l.ticker}|${l.exchange}|${l.currency}`));
    expect(new Set(listings).size).toBe(listings.length);
    for (const i of FULL_CATALOGUE)
      expect(
        i.listings.filter((l) => l.primary),
        i.isin,
      ).toHaveLength(1);
    for (const index of SEED_INDICES)
      for (const m of index.members)
        expect(
          FULL_CATALOGUE.some((i) => i.isin === m.isin && i.listings.some((l) => l.ticker === m.ticker)),
          m.ticker,
        ).toBe(true);
  });
});
