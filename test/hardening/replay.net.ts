import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { listings, validationResults } from "../../src/db/schema";
import type { DividendsBody } from "../../src/routes/corporate-actions/schema";
import type { EodAnswer } from "../../src/routes/eod/schema";
import type { RenderedFundamentalsAnswer } from "../../src/routes/fundamentals/schema";
import aaplChart from "../fixtures/recorded/delayed_provider/chart-AAPL-2020-09-to-11-split-div.json";
import ibmChart from "../fixtures/recorded/delayed_provider/chart-IBM-5m-5d.json";
import nvdaChart from "../fixtures/recorded/delayed_provider/chart-NVDA-2021-split-4-1.json";
import aaplBalance from "../fixtures/recorded/delayed_provider/fundamentalsTimeSeries-AAPL-balance-sheet-annual.json";
import aaplCashFlow from "../fixtures/recorded/delayed_provider/fundamentalsTimeSeries-AAPL-cash-flow-annual.json";
import aaplIncome from "../fixtures/recorded/delayed_provider/fundamentalsTimeSeries-AAPL-financials-annual.json";
import aaplSummary from "../fixtures/recorded/delayed_provider/quoteSummary-AAPL-all.json";
import { withDb } from "../helpers/db";
import { resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

/**
 * The service reading what the real delayed provider once sent: the recordings of
 * test/fixtures/recorded served at the provider's base URL, read through the production client,
 * the validation layer and the route. Expected values are taken from the recordings here, never
 * from the service's own output. (In the hardening group: it runs alone, so AAPL's stored state is
 * this file's.)
 */

const replay = inject("replayUrl");
const delayedReplay = { DELAYED_PROVIDER_BASE_URL: `${replay}/delayed_provider` };
/** The day the timeseries recording was made. */
const AT = "2026-02-20T15:00:00Z";

type Json = Record<string, unknown>;
const recorded = (aaplSummary.response.body as { quoteSummary: { result: Json[] } }).quoteSummary.result[0] as Record<
  string,
  Json
>;

/** The reported values of one series of a recorded timeseries answer, as the recording has them. */
function reported(recording: Json, series: string): { asOfDate: string; raw: number }[] {
  const result = ((recording.response as Json).body as { timeseries: { result: Json[] } }).timeseries.result;
  const entry = result.find((s) => (s.meta as { type: string[] }).type[0] === series);
  return ((entry?.[series] ?? []) as ({ asOfDate: string; reportedValue: { raw: number } } | null)[])
    .filter((p) => p !== null)
    .map((p) => ({ asOfDate: p.asOfDate, raw: p.reportedValue.raw }));
}

/** AAPL with nothing stored, and the symbol verification done (the replay has no recording of an ISIN search). */
async function freshAapl(): Promise<void> {
  await resetTickers("AAPL");
  await withDb((db) =>
    db
      .update(listings)
      .set({ delayedSymbol: "AAPL", delayedSymbolCheckedAt: new Date(AT) })
      .where(eq(listings.ticker, "AAPL")),
  );
}

describe("the delayed provider replayed from real recorded answers", () => {
  let doc: RenderedFundamentalsAnswer;
  beforeAll(async () => {
    await freshAapl();
    const res = await call<RenderedFundamentalsAnswer>(
      "/fundamental?ticker=AAPL&provider=delayed_provider&nocache=true",
      {
        at: AT,
        env: delayedReplay,
      },
    );
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    doc = res.body;
  });

  it("GET /fundamental shows the recorded figures, each labelled delayed_provider", () => {
    const h = doc.Highlights as Json;
    const t = doc.Technicals as Json;
    const sd = recorded.summaryDetail as Json;
    const fd = recorded.financialData as Json;
    expect(doc.Providers.delayed_provider).toMatchObject({ status: "ok", symbol: "AAPL" });
    expect(h.MarketCapitalization).toBe((recorded.price as Json).marketCap);
    expect(h.PERatio).toBe(sd.trailingPE);
    expect(h.DividendYield).toBe(sd.dividendYield);
    expect(h.ProfitMargin).toBe(fd.profitMargins);
    expect(h.OperatingMarginTTM).toBe(fd.operatingMargins);
    expect(t.Beta).toBe(sd.beta);
    expect(t["52WeekHigh"]).toBe(sd.fiftyTwoWeekHigh);
    expect(t["52WeekLow"]).toBe(sd.fiftyTwoWeekLow);
    for (const [section, field] of [
      ["Highlights", "MarketCapitalization"],
      ["Highlights", "PERatio"],
      ["Highlights", "DividendYield"],
      ["Highlights", "ProfitMargin"],
      ["Technicals", "Beta"],
      ["Technicals", "52WeekHigh"],
    ] as const)
      expect(doc.Sources[section]?.[field], `${section}.${field}`).toMatch(/^delayed_provider/);
  });

  it("lists the recorded fund owners in Holders.Funds, as the recorded institutions in Holders.Institutions", () => {
    const holders = doc.Holders as Record<string, Record<string, Json>>;
    for (const [section, module] of [
      ["Funds", "fundOwnership"],
      ["Institutions", "institutionOwnership"],
    ] as const) {
      const owners = (recorded[module]?.ownershipList ?? []) as { organization: string; position: { raw: number } }[];
      expect(owners.length, module).toBeGreaterThan(0);
      expect(Object.values(holders[section] ?? {}).map((h) => [h.name, h.currentShares])).toEqual(
        owners.map((o) => [o.organization, o.position.raw]),
      );
      expect(doc.Sources.Holders?.[section]).toBe("delayed_provider");
    }
  });

  it("shows the fiscal years of the recorded fundamentals-timeseries", () => {
    const fin = doc.Financials as Record<string, { yearly: Record<string, Json> }>;
    const checks: [statement: string, recorded: Json, series: string, item: string][] = [
      ["Income_Statement", aaplIncome, "annualTotalRevenue", "totalRevenue"],
      ["Income_Statement", aaplIncome, "annualNetIncome", "netIncome"],
      ["Balance_Sheet", aaplBalance, "annualTotalAssets", "totalAssets"],
      ["Cash_Flow", aaplCashFlow, "annualFreeCashFlow", "freeCashFlow"],
    ];
    for (const [statement, recording, series, item] of checks) {
      const points = reported(recording, series);
      expect(points.length, series).toBeGreaterThanOrEqual(4);
      const yearly = fin[statement]?.yearly ?? {};
      for (const p of points)
        expect(Number(yearly[p.asOfDate]?.[item]), `${statement} ${p.asOfDate} ${item}`).toBe(p.raw);
    }
  });

  it("reads every field it reads of the recorded quoteSummary where it expects it: no schema_drift verdict", async () => {
    const drift = await withDb((db) =>
      db
        .select({ field: validationResults.field, reason: validationResults.reason })
        .from(validationResults)
        .where(and(eq(validationResults.ticker, "AAPL"), eq(validationResults.status, "schema_drift"))),
    );
    // Fields the recording lacks but the service does not read (earnings' defaultMethodology) are no drift.
    expect(drift).toEqual([]);
    // The verdicts were written (an empty drift list is not an empty table): one per validated figure.
    const verdicts = await withDb((db) =>
      db
        .select({ field: validationResults.field })
        .from(validationResults)
        .where(and(eq(validationResults.ticker, "AAPL"), eq(validationResults.providerName, "delayed_provider"))),
    );
    expect(verdicts.map((v) => v.field)).toContain("pe_ratio");
    expect(JSON.stringify(doc)).not.toContain("schema_drift");
  });
});

describe("a chart answer that drifted, replayed", () => {
  it("answers the quote from what it could read, and records the drift after the answer", async () => {
    const chart = structuredClone((aaplChart as { response: { body: Json } }).response.body);
    const meta = ((chart.chart as Json).result as Json[])[0]?.meta as Json;
    // The provider starts sending the venue as a number: that field is lost, nothing else.
    meta.exchangeName = 42;
    const made = await fetch(`${replay}/__replay/variants`, {
      method: "POST",
      body: JSON.stringify({
        provider: "delayed_provider",
        file: "chart-AAPL-2020-09-to-11-split-div.json",
        body: chart,
      }),
    });
    const { id } = (await made.json()) as { id: string };
    await withDb((db) => db.delete(validationResults).where(eq(validationResults.ticker, "AAPL")));
    const res = await call<{ price: number | string; source: string }>("/quote/AAPL", {
      at: AT,
      env: { DELAYED_PROVIDER_BASE_URL: `${replay}/v/${id}/delayed_provider` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Number(res.body.price)).toBe(meta.regularMarketPrice);
    expect(res.body.source).toBe("delayed_provider");
    // Recorded in the background: polled for, a few seconds at most.
    let drift: { field: string; reason: string | null }[] = [];
    for (let i = 0; i < 50 && drift.length === 0; i++) {
      drift = await withDb((db) =>
        db
          .select({ field: validationResults.field, reason: validationResults.reason })
          .from(validationResults)
          .where(and(eq(validationResults.ticker, "AAPL"), eq(validationResults.status, "schema_drift"))),
      );
      if (drift.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(drift).toEqual([
      { field: "chart:chart.result[].meta.exchangeName", reason: "expected a string, saw a number" },
    ]);
  });
});

describe("an intraday answer of the real provider, replayed", () => {
  it("GET /intraday gives the recorded 5m bars of IBM's five sessions, less the closing-price marker after the last close", async () => {
    await resetTickers("IBM");
    await withDb((db) =>
      db
        .update(listings)
        .set({ delayedSymbol: "IBM", delayedSymbolCheckedAt: new Date("2026-08-20T15:00:00Z") })
        .where(eq(listings.ticker, "IBM")),
    );
    type Bar = { datetime: string; open: number; close: number; volume: number; source: string };
    // 20 August: the sessions are past the minutes the provider keeps (30 days), within its 5m bars (60).
    const res = await call<{ count: number; bars: Bar[]; provider_requests: number; sessions: string[] }>(
      "/intraday/IBM?interval=5m&from=2026-07-06&to=2026-07-10",
      { at: "2026-08-20T15:00:00Z", env: delayedReplay },
    );
    expect(res.status).toBe(200);
    expect(res.body.provider_requests).toBe(1);
    expect(res.body.sessions).toEqual(["2026-07-06", "2026-07-07", "2026-07-08", "2026-07-09", "2026-07-10"]);
    const result = ibmChart.response.body.chart.result[0] as unknown as {
      timestamp: number[];
      indicators: { quote: { open: number[]; close: number[]; volume: number[] }[] };
    };
    const q = result.indicators.quote[0] as { open: number[]; close: number[]; volume: number[] };
    // 391 recorded bars: 78 a session, and one at the last close (16:00, no volume) that is no bar of the session.
    expect(result.timestamp).toHaveLength(391);
    expect(res.body.count).toBe(390);
    // Each price as the very float32 the provider sent (stored to every decimal it holds).
    expect(
      res.body.bars.map((b) => [b.datetime, Math.fround(b.open), Math.fround(b.close), b.volume, b.source]),
    ).toEqual(
      result.timestamp
        .slice(0, 390)
        .map((t, i) => [
          new Date(t * 1000).toISOString().replace(".000Z", "Z"),
          q.open[i],
          q.close[i],
          q.volume[i],
          "delayed_provider",
        ]),
    );
    await resetTickers("IBM");
  });
});

describe("a daily chart of the real provider across a split, replayed through /eod", () => {
  it("stores NVDA's year at the provider's precision: every close the recorded float32, no false finding", async () => {
    await resetTickers("NVDA");
    // Its symbol as verified (the recordings hold no search for it).
    await withDb((db) =>
      db
        .update(listings)
        .set({ delayedSymbol: "NVDA", delayedSymbolCheckedAt: new Date(AT) })
        .where(eq(listings.ticker, "NVDA")),
    );
    const result = nvdaChart.response.body.chart.result[0] as unknown as {
      timestamp: number[];
      indicators: { quote: { close: number[] }[]; adjclose: { adjclose: number[] }[] };
    };
    const closes = result.indicators.quote[0]?.close ?? [];
    const res = await call<EodAnswer>("/eod/NVDA?from=2021-02-01&to=2022-01-28", { at: AT, env: delayedReplay });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.count).toBe(252);
    expect(res.body.data.map((b) => b.Date)).toEqual(
      result.timestamp.map((t) => new Date(t * 1000).toISOString().slice(0, 10)),
    );
    // The very float32 sent, and so equal to it to seven significant digits: 13.237 stays 13.237.
    expect(res.body.data.map((b) => Math.fround(b.Close))).toEqual(closes);
    const seven = (x: number) => Number(x.toPrecision(7));
    expect(res.body.data.filter((b, i) => Math.abs(b.Close - (closes[i] ?? 0)) > 5e-7 * b.Close)).toEqual([]);
    expect(res.body.data[0]?.Close).toBe(13.237);
    expect(seven(res.body.data[0]?.Close ?? 0)).toBe(seven(closes[0] ?? 0));
    expect(res.body.precision.stored).toBe("full");
    expect(res.body.warnings).toEqual([]);
    // The recording was asked with events=split: its split is stored, its dividends are not, and the
    // check names exactly NVDA's four real ex-dates of 2021 as steps no stored event explains.
    const check = await call<DividendsBody>("/dividends/NVDA", { at: AT, env: delayedReplay });
    expect(check.body.adjustment_check).toMatchObject({ precision: "full", splits: 1, dividends: 0, mismatches: 4 });
    expect(check.body.adjustment_check?.first_mismatches.map((m) => [m.date, m.kind])).toEqual([
      ["2021-03-09", "unexplained"],
      ["2021-06-09", "unexplained"],
      ["2021-08-31", "unexplained"],
      ["2021-12-01", "unexplained"],
    ]);
    await resetTickers("NVDA");
  });
});
