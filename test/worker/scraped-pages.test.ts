import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { buildDeps } from "../../src/deps";
import { SCRAPED_BUSINESSINSIDER, SCRAPED_ONVISTA } from "../../src/domain/provider-names";
import { ProviderError } from "../../src/providers/errors";
import { parseBusinessInsider } from "../../src/providers/scraped/businessinsider";
import { parseOnvista } from "../../src/providers/scraped/onvista";
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

describe("a page whose layout changed", () => {
  it("a stock page naming its ISIN without any of the snapshot's labels: no figures, the change reported", async () => {
    const html = `<html><body><h1>Apple Inc.</h1><p>ISIN US0378331005</p>
      <div class="snapshot__item"><span>28.85</span><span>KGV</span></div></body></html>`;
    const page = await parseBusinessInsider(html, "https://example.test/stocks/aapl-stock");
    expect(page.isin).toBe("US0378331005");
    expect(page.figures).toEqual({});
    expect(page.drifts).toEqual([
      {
        provider: SCRAPED_BUSINESSINSIDER,
        document: "stock page",
        path: ".snapshot__data-item",
        expected: "snapshot items labelled P/E Ratio, EPS, Dividend Yield",
        seen: "no snapshot items",
      },
    ]);
  });

  it("a Kennzahlen page whose P/E turned into text: that figure lost and reported, the year's others kept", async () => {
    const data = {
      snapshot: { instrument: { isin: "FR0000121014", name: "LVMH" } },
      figures: {
        stocksCnFundamentalList: {
          list: [
            { label: "2025", cnPer: "24,1", cnDivYield: 2.1 },
            { label: "2026e", cnPer: 22.0, cnDivYield: 2.3 },
          ],
        },
        stocksCnFinancialList: { list: [{ label: "2025", cnEpsAdj: 25.7 }] },
      },
    };
    const html = `<html><body><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({
      props: { pageProps: { data } },
    })}</script></body></html>`;
    const page = await parseOnvista(html, "https://example.test/aktien/kennzahlen/FR0000121014");
    expect(page.basis).toBe("fiscal year 2025");
    expect(page.figures).toEqual({
      pe_ratio: { value: null, unit: "ratio" },
      eps_ttm: { value: 25.7, unit: "ratio", currency: "EUR" },
      dividend_yield: { value: 2.1, unit: "unknown" },
    });
    expect(page.drifts).toEqual([
      {
        provider: SCRAPED_ONVISTA,
        document: "__NEXT_DATA__",
        path: "figures.stocksCnFundamentalList.list[].cnPer",
        expected: "a number",
        seen: 'a string "24,1"',
      },
    ]);
  });
});
