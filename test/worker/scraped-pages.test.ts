import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { buildDeps } from "../../src/deps";
import { ProviderError } from "../../src/providers/errors";
import { SCRAPED_BUSINESSINSIDER, SCRAPED_ONVISTA } from "../../src/providers/names";
import type { ScrapedProvider } from "../../src/providers/scraped/types";
import { fault, simRequests } from "../helpers/listings";

const pages = inject("scrapedSimUrl");

function provider(name: string): ScrapedProvider {
  const found = buildDeps(env).providers.scraped.find((p) => p.name === name);
  if (!found) throw new Error(`no scraped provider ${name}`);
  return found;
}

describe("scraped pages, read with HTMLRewriter from the simulated sites", () => {
  it("reads a US share's page, found through the site's search by ISIN: ISIN, P/E, EPS in dollars, a yield written in percent", async () => {
    const before = await simRequests(pages);
    const page = await provider(SCRAPED_BUSINESSINSIDER).read({
      isin: "US0378331005",
      ticker: "AAPL",
      currency: "USD",
      kind: "share",
    });
    expect(page).toMatchObject({
      provider: SCRAPED_BUSINESSINSIDER,
      url: `${pages}/stocks/aapl-stock`,
      isin: "US0378331005",
      name: "Apple Inc.",
      basis: "trailing twelve months",
    });
    expect(page.figures.pe_ratio).toEqual({ value: expect.any(Number), unit: "ratio" });
    expect(page.figures.eps_ttm).toEqual({ value: expect.any(Number), unit: "ratio", currency: "USD" });
    expect(page.figures.dividend_yield?.unit).toBe("percent");
    const pe = page.figures.pe_ratio?.value ?? 0;
    expect(pe).toBeGreaterThan(5);
    expect(pe).toBeLessThan(60);
    const after = await simRequests(pages);
    expect((after["suggest US0378331005"] ?? 0) - (before["suggest US0378331005"] ?? 0)).toBe(1);
  });

  it("reads a European share's page: the newest reported year, not an estimate, and a yield of unknown scale", async () => {
    const page = await provider(SCRAPED_ONVISTA).read({
      isin: "FR0000121014",
      ticker: "MC.PA",
      currency: "EUR",
      kind: "share",
    });
    expect(page).toMatchObject({
      isin: "FR0000121014",
      basis: "fiscal year 2025",
      url: `${pages}/aktien/kennzahlen/FR0000121014`,
    });
    expect(page.figures.eps_ttm).toEqual({ value: expect.any(Number), unit: "ratio", currency: "EUR" });
    expect(page.figures.dividend_yield?.unit).toBe("unknown");
    expect(page.figures.dividend_yield?.value).toBeGreaterThan(0.25);
  });

  it("reports the ISIN a page is really about", async () => {
    const page = await provider(SCRAPED_ONVISTA).read({
      isin: "DE0007164600",
      ticker: "SAP.DE",
      currency: "EUR",
      kind: "share",
    });
    expect(page.isin).toBe("DE0007236101");
  });

  it.each([
    ["500", "unavailable"],
    ["ratelimit", "rate_limited"],
    ["malformed", "bad_response"],
    ["error200", "bad_response"],
    ["unknown", "not_found"],
  ])("turns the fault %s into a provider failure (%s)", async (mode, failure) => {
    await fault(pages, "FR0000121014", mode, 1);
    const err = await provider(SCRAPED_ONVISTA)
      .read({ isin: "FR0000121014", ticker: "MC.PA", currency: "EUR", kind: "share" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).failure).toBe(failure);
    await fault(pages, "aapl", mode, 1);
    const us = await provider(SCRAPED_BUSINESSINSIDER)
      .read({ isin: "US0378331005", ticker: "AAPL", currency: "USD", kind: "share" })
      .catch((e: unknown) => e);
    expect((us as ProviderError).failure).toBe(failure);
  });
});
