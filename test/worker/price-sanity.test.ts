import { and, eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { listings, priceFindings } from "../../src/db/schema";
import type { DividendsBody } from "../../src/routes/corporate-actions/schema";
import type { EodAnswer } from "../../src/routes/eod/schema";
import type { ValidationStatsBody } from "../../src/routes/health/stats";
import type { ErrorBody } from "../../src/routes/openapi";
import { dailyHistory } from "../../tools/sandbox/market-data";
import { withDb } from "../helpers/db";
import { glitchAt, resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");

/** Friday 27 November 2026: the newest stored session is Wednesday's (Thursday is Thanksgiving). */
const AT = "2026-11-27T15:00:00Z";
const WINDOW = "from=2026-01-02&to=2026-06-30";
const TICKER = "PAYX";
const sim = dailyHistory(TICKER, "2026-11-26");
const simBar = (date: string) => {
  const b = sim.bars.find((x) => x.date === date);
  if (!b) throw new Error(`no simulated session ${date}`);
  return b;
};
/** The sessions the simulator itself sends as nulls in the window: the provider's own gaps, found as missing. */
const naturalGaps = sim.bars
  .filter((b) => b.missing && b.date >= "2026-01-02" && b.date <= "2026-06-30")
  .map((b) => ({ date: b.date, kind: "missing_session" }));

type Warned = { date: string; kind: string };
const warned = (body: EodAnswer): Warned[] => body.warnings.map((w) => ({ date: w.date, kind: w.kind }));

/**
 * Stores the listing's last year or so (the net reads the stored bars; ten years would only make
 * the test slower), as POST /historical/ingest does: the ingestion, its checks and its findings.
 */
async function ingestYear(): Promise<void> {
  const res = await call<{ results: { status: string }[] }>("/historical/ingest", {
    method: "POST",
    body: { tickers: [TICKER], from: "2025-10-01", to: "2026-11-26" },
    at: AT,
  });
  expect(res.status).toBe(200);
  expect(res.body.results[0]?.status).toBe("ingested");
}

async function eod(query: string, at = AT) {
  const res = await call<EodAnswer>(`/eod/${TICKER}?${query}`, { at });
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  return res;
}

describe("the price sanity net on /eod, each glitch of the delayed provider injected", () => {
  beforeEach(() => resetTickers(TICKER));
  afterAll(() => resetTickers(TICKER));

  it("a clean series: no warning but the provider's own gaps, stored at full precision", async () => {
    const res = await eod(WINDOW);
    expect(warned(res.body)).toEqual(naturalGaps);
    expect(res.body.precision.stored).toBe("full");
    expect(res.headers.get("x-price-precision")).toBe("full");
    expect(res.headers.get("x-price-warnings")).toBe(String(naturalGaps.length));
    const bar = res.body.data.find((b) => b.Date === "2026-03-02");
    expect(bar?.Close).toBe(simBar("2026-03-02").close);
  });

  it.each([
    ["split_missing", "2026-03-02", false],
    ["split_unapplied", "2026-03-02", true],
    ["split_doubled", "2026-03-02", true],
    ["unit_100x", "2026-04-15", true],
    ["duplicate_session", "2026-05-12", false],
    ["missing_session", "2026-02-17", false],
    ["ohlc_inconsistent", "2026-06-01", true],
    ["non_positive", "2026-06-02", false],
  ])("finds %s on %s, lists it on /eod and in /health/stats", async (mode, date, repairable) => {
    await glitchAt(yahoo, TICKER, mode, date);
    await ingestYear();
    const res = await eod(WINDOW);
    expect(warned(res.body)).toEqual([...naturalGaps, { date, kind: mode }].sort((a, b) => (a.date < b.date ? -1 : 1)));
    expect(res.body.warnings.find((w) => w.kind === mode)?.repairable).toBe(repairable);
    const ofKind = (mode === "missing_session" ? naturalGaps.length : 0) + 1;
    expect(res.headers.get("x-price-warning-kinds")).toContain(`${mode}=${ofKind}`);
    // Stored, whoever asks next.
    const [listing] = await withDb((db) =>
      db.select({ id: listings.id }).from(listings).where(eq(listings.ticker, TICKER)),
    );
    const rows = await withDb((db) =>
      db
        .select({ date: priceFindings.date, kind: priceFindings.kind })
        .from(priceFindings)
        .where(and(eq(priceFindings.listingId, Number(listing?.id)), eq(priceFindings.kind, mode as "split_missing"))),
    );
    expect(rows).toContainEqual({ date, kind: mode });
    const stats = await call<ValidationStatsBody>("/health/stats", { at: AT });
    const counted = stats.body.price_sanity.by_kind.find((k) => k.kind === mode);
    expect(counted).toMatchObject({ repairable });
    expect(counted?.findings).toBeGreaterThanOrEqual(ofKind);
    expect(stats.body.price_sanity.findings).toBeGreaterThanOrEqual(ofKind);
  });

  it("repair=true serves the repaired series and names each change; the stored bars stay as sent", async () => {
    await glitchAt(yahoo, TICKER, "split_unapplied", "2026-03-02");
    await ingestYear();
    const plain = await eod(WINDOW);
    const before = plain.body.data.find((b) => b.Date === "2026-02-27");
    expect(before?.Close).toBeCloseTo(simBar("2026-02-27").close * 2, 6);
    const fixed = await eod(`${WINDOW}&repair=true`);
    expect(fixed.body.data.find((b) => b.Date === "2026-02-27")?.Close).toBeCloseTo(simBar("2026-02-27").close, 8);
    expect(fixed.body.data.find((b) => b.Date === "2026-03-02")?.Close).toBe(simBar("2026-03-02").close);
    expect(fixed.body.repaired).toEqual([
      { date: "2026-03-02", kind: "split_unapplied", change: expect.stringContaining("divided by 2") },
    ]);
    expect(fixed.headers.get("x-price-repaired")).toBe("1");
    // The plain answer is its own cache entry: unrepaired, as stored.
    expect((await eod(WINDOW)).body.data.find((b) => b.Date === "2026-02-27")?.Close).toBe(before?.Close);
  });

  it("repair=true leaves a split missing with no event as stored: a warning only", async () => {
    await glitchAt(yahoo, TICKER, "split_missing", "2026-03-02");
    await ingestYear();
    const fixed = await eod(`${WINDOW}&repair=true`);
    expect(fixed.body.repaired).toEqual([]);
    expect(fixed.body.data.find((b) => b.Date === "2026-02-27")?.Close).toBeCloseTo(simBar("2026-02-27").close * 4, 6);
    expect(fixed.body.warnings).toContainEqual(
      expect.objectContaining({ date: "2026-03-02", kind: "split_missing", repairable: false }),
    );
  });

  it("repairs a unit glitch; a bar on a holiday goes", async () => {
    await glitchAt(yahoo, TICKER, "unit_100x", "2026-04-15");
    await ingestYear();
    const fixed = await eod(`${WINDOW}&repair=true`);
    expect(fixed.body.data.find((b) => b.Date === "2026-04-15")?.Close).toBeCloseTo(simBar("2026-04-15").close, 8);
    await resetTickers(TICKER);
    await glitchAt(yahoo, TICKER, "closed_day_bar", "2026-04-03");
    await ingestYear();
    const holiday = await eod(WINDOW);
    expect(warned(holiday.body)).toContainEqual({ date: "2026-04-03", kind: "closed_day_bar" });
    expect(holiday.body.data.map((b) => b.Date)).toContain("2026-04-03");
    const repaired = await eod(`${WINDOW}&repair=true`);
    expect(repaired.body.data.map((b) => b.Date)).not.toContain("2026-04-03");
    expect(repaired.body.repaired).toContainEqual({
      date: "2026-04-03",
      kind: "closed_day_bar",
      change: "bar removed (holiday: Good Friday)",
    });
  });

  it("names a London pence line's bar sent in pounds, after the pence are scaled", async () => {
    await resetTickers("SWDA.L");
    await glitchAt(yahoo, "SWDA.L", "unit_100x", "2026-04-15");
    const res = await call<EodAnswer>(`/eod/SWDA.L?${WINDOW}`, { at: AT });
    expect(res.status).toBe(200);
    const w = res.body.warnings.find((x) => x.kind === "unit_100x");
    expect(w).toMatchObject({ date: "2026-04-15", evidence: { factor: 0.01, fields: "open,high,low,close,adjClose" } });
    await resetTickers("SWDA.L");
  });

  it("finds a dividend that includes the capital gain the provider sends apart (j), its adjusted closes consistent", async () => {
    const exDate = sim.dividends.find((d) => d.date.startsWith("2026-05"))?.date ?? "";
    expect(exDate).toBe("2026-05-15");
    await glitchAt(yahoo, TICKER, "capital_gains_in_dividend", exDate);
    await ingestYear();
    const res = await eod(WINDOW);
    const found = res.body.warnings.find((w) => w.kind === "capital_gains_in_dividend");
    expect(found).toMatchObject({ date: exDate, repairable: false, evidence: { capital_gain: 0.5 } });
    expect(found?.evidence.dividend).toBeCloseTo((sim.dividends.find((d) => d.date === exDate)?.amount ?? 0) + 0.5, 6);
    const divs = await call<DividendsBody>(`/dividends/${TICKER}`, { at: AT });
    expect(divs.body.adjustment_check).toMatchObject({ consistent: true, precision: "full" });
  });

  it("puts the warnings and the precision in headers of the CSV form, whose header stays the spec's", async () => {
    await glitchAt(yahoo, TICKER, "ohlc_inconsistent", "2026-06-01");
    await ingestYear();
    const res = await call<string>(`/eod/${TICKER}?${WINDOW}&fmt=csv`, { at: AT });
    expect(res.body.split("\n")[0]).toBe("Date,Open,High,Low,Close,Adj Close,Volume");
    expect(res.headers.get("x-price-precision")).toBe("full");
    expect(res.headers.get("x-price-warnings")).toBe(String(naturalGaps.length + 1));
    expect(res.headers.get("x-price-warning-kinds")).toContain("ohlc_inconsistent=1");
  });
});

describe("honest windows", () => {
  beforeEach(() => resetTickers(TICKER));

  it("a window wholly in the future is a 400, not 'no trading sessions'", async () => {
    const res = await call<ErrorBody>(`/eod/${TICKER}?from=2030-01-02&to=2030-01-31`, { at: AT });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("wholly in the future");
  });

  it("a session the venue traded but no provider has is reported missing, with its early close", async () => {
    await glitchAt(yahoo, TICKER, "missing_session", "2026-11-27");
    const res = await call<ErrorBody & { reason: string }>(`/eod/${TICKER}?from=2026-11-27&to=2026-11-27`, {
      at: "2026-11-30T15:00:00Z",
    });
    expect(res.status).toBe(404);
    expect(res.body.reason).toBe(
      "missing sessions: Nasdaq Stock Market held a session on 2026-11-27 (early close at 13:00) and no provider has a bar for it",
    );
  });

  it("the sandbox's own gap of DXCM on the day after Thanksgiving: missing, with the early close", async () => {
    expect(dailyHistory("DXCM", "2026-11-28").bars.find((b) => b.date === "2026-11-27")?.missing).toBe(true);
    await resetTickers("DXCM");
    const res = await call<ErrorBody & { reason: string }>("/eod/DXCM?from=2026-11-27&to=2026-11-27", {
      at: "2026-11-29T15:00:00Z",
    });
    expect(res.status).toBe(404);
    expect(res.body.reason).toContain("held a session on 2026-11-27 (early close at 13:00) and no provider has a bar");
    await resetTickers("DXCM");
  });

  it("the sandbox's own gap of MSFT on 1 July 2026 is listed as missing", async () => {
    expect(dailyHistory("MSFT", "2026-11-26").bars.find((b) => b.date === "2026-07-01")?.missing).toBe(true);
    await resetTickers("MSFT");
    const res = await call<EodAnswer>("/eod/MSFT?from=2026-06-29&to=2026-07-02", { at: AT });
    expect(res.status).toBe(200);
    expect(res.body.data.map((b) => b.Date)).toEqual(["2026-06-29", "2026-06-30", "2026-07-02"]);
    expect(warned(res.body)).toEqual([{ date: "2026-07-01", kind: "missing_session" }]);
    await resetTickers("MSFT");
  });
});
