import { beforeAll, describe, expect, inject, it } from "vitest";
import { cacheKeys } from "../../src/platform/cache";
import type { EtfDetailsAnswer } from "../../src/routes/etf/schema";
import type { RenderedFundamentalsAnswer } from "../../src/routes/fundamentals/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { fault, forgetCached, resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");

describe("GET /etf/{isin}/details", () => {
  beforeAll(() => resetTickers("CW8.PA"));

  it("answers a catalogue ETF's fund data from the listing /eod would read, weights as ratios", async () => {
    const res = await call<EtfDetailsAnswer>("/etf/LU1681043599/details");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      isin: "LU1681043599",
      ticker: "CW8.PA",
      name: "Amundi MSCI World UCITS ETF",
      issuer: "Amundi",
      category: "Large Blend",
      legal_type: "Exchange Traded Fund",
      expense_ratio: 0.0007,
      yield: 0,
      inception_date: "2010-05-19",
      meta: { source: "delayed_provider", symbol: "CW8.PA", cache_hit: false },
    });
    const sectors = res.body.sector_weights.reduce((s, w) => s + w.weight, 0);
    expect(Math.abs(sectors - 1)).toBeLessThanOrEqual(0.01);
    expect(res.body.top_holdings).toHaveLength(10);
    for (const h of res.body.top_holdings) {
      expect(h.weight).toBeGreaterThan(0);
      expect(h.weight).toBeLessThan(1);
    }
    expect(res.body.asset_classes).toMatchObject({ stock: 0.9988, cash: 0.0012, bond: 0 });
  });

  it("answers a repeat from the cache, and from the database with a note when the provider fails", async () => {
    expect((await call<EtfDetailsAnswer>("/etf/LU1681043599/details")).body.meta.cache_hit).toBe(true);
    await forgetCached(cacheKeys.etf("LU1681043599"));
    await fault(yahoo, "CW8.PA", "500", 20);
    const res = await call<EtfDetailsAnswer>("/etf/LU1681043599/details");
    expect(res.body.meta).toMatchObject({ source: "database", cache_hit: false });
    expect(res.body.meta.note).toBe(
      "nothing fetched: the delayed provider failed for CW8.PA (HTTP 500); the stored fund data is shown",
    );
    expect(res.body.top_holdings).toHaveLength(10);
  });

  it("feeds the rendered document's ETF_Data, from the stored data when the provider fails", async () => {
    await fault(yahoo, "CW8.PA", "500", 20);
    const doc = await call<RenderedFundamentalsAnswer>("/fundamental?isin=LU1681043599&nocache=true");
    const etf = doc.body.ETF_Data as Record<string, unknown>;
    expect(Object.keys(etf.Top_10_Holdings as object)).toHaveLength(10);
    expect(doc.body.Sources.ETF_Data?.Top_10_Holdings).toMatch(/^database \(\d{4}-\d\d-\d\d\)$/);
  });

  it("answers 404 with the reason for a share's ISIN, and for an ISIN the catalogue lacks", async () => {
    const share = await call<ErrorBody>("/etf/FR0000121014/details");
    expect(share.status).toBe(404);
    expect(share.body.reason).toBe("FR0000121014 is not an ETF: LVMH Moët Hennessy Louis Vuitton SE is a share");
    const unknown = await call<ErrorBody>("/etf/US0000000002/details");
    expect(unknown.status).toBe(404);
    expect(unknown.body.reason).toBe("US0000000002 is not an instrument of the catalogue");
  });
});
