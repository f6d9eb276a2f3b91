import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinnedClock } from "../../src/clock";
import { listings } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import type { EodAnswer, EodBulkBody } from "../../src/routes/eod/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { BULK_CSV_HEADER, bulkEod } from "../../src/services/eod/bulk";
import { resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

/** Friday 20 November 2026, 15:00 UTC: Xetra's session of the day still open, its last closed one the 19th. */
const AT = "2026-11-20";
const deps = buildDeps(env);

afterAll(() => deps.close());

/** Xetra's listings the answer of `date` covers: the active ones, and any other with a bar that day. */
async function xetraListingsOf(date: string): Promise<number> {
  const r = await deps.db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM ${listings} l
    WHERE l.exchange = 'XETRA'
      AND (l.is_active OR EXISTS (SELECT 1 FROM prices_daily p WHERE p.listing_id = l.id AND p.date = ${date}))`);
  return r.rows[0]?.n ?? 0;
}

describe("GET /eod/bulk/{exchange}", () => {
  let sap: EodAnswer["data"][number];

  beforeAll(async () => {
    await resetTickers("SAP.DE", "SIE.DE");
    for (const t of ["SAP.DE", "SIE.DE"])
      expect((await call<EodAnswer>(`/eod/${t}?period=1mo`, { at: AT })).status).toBe(200);
    const eod = await call<EodAnswer>("/eod/SAP.DE?period=1mo", { at: AT });
    sap = eod.body.data.at(-1) as EodAnswer["data"][number];
    expect(sap.Date).toBe("2026-11-19");
  });

  it("gives each active listing of the venue its stored bar of the last closed session, the others as missing", async () => {
    const res = await call<EodBulkBody>("/eod/bulk/xetra", { at: AT });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=300");
    expect(res.body).toMatchObject({ exchange: "XETRA", date: "2026-11-19" });
    expect(res.body.data.find((r) => r.ticker === "SAP.DE")).toEqual({
      ticker: "SAP.DE",
      isin: "DE0007164600",
      name: expect.any(String),
      currency: "EUR",
      date: "2026-11-19",
      open: sap.Open,
      high: sap.High,
      low: sap.Low,
      close: sap.Close,
      adj_close: sap["Adj Close"],
      volume: sap.Volume,
      data_source: "delayed_provider",
    });
    expect(res.body.data.map((r) => r.ticker)).toContain("SIE.DE");
    expect(res.body.count).toBe(res.body.data.length);
    expect(res.body.missing_count).toBe(res.body.missing.length);
    // Every active Xetra listing once: with its bar, or named as missing.
    const all = [...res.body.data, ...res.body.missing].map((r) => `${r.ticker}|${r.currency}`);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(await xetraListingsOf("2026-11-19"));
    expect(res.body.missing.length).toBeGreaterThan(0);
  });

  it("gives the same rows as CSV, listings without a bar left out", async () => {
    const json = await call<EodBulkBody>("/eod/bulk/XETRA?date=2026-11-19", { at: AT });
    const csv = await call<string>("/eod/bulk/XETRA?date=2026-11-19&fmt=csv", { at: AT });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = csv.body.trim().split("\n");
    expect(lines[0]).toBe(BULK_CSV_HEADER);
    expect(lines).toHaveLength(json.body.count + 1);
    const row = lines.find((l) => l.startsWith("SAP.DE,"))?.split(",");
    expect(row?.slice(0, 4)).toEqual(["SAP.DE", "DE0007164600", "EUR", "2026-11-19"]);
    // The figures as JSON writes them (not the column's trailing zeros).
    expect(row?.[7]).toBe(String(sap.Close));
    expect(row?.[9]).toBe(String(sap.Volume));
    expect(row?.[10]).toBe("delayed_provider");
  });

  it("pages through the venue a page at a time with the same answer", async () => {
    const deps = buildDeps(env, { clock: pinnedClock(AT) });
    try {
      const read = async (pageSize: number) => {
        const answer = await bulkEod({ ctx: deps, input: { exchange: "XETRA", fmt: "json" }, pageSize });
        return JSON.parse(await new Response(answer.body).text()) as EodBulkBody;
      };
      const whole = await read(1000);
      expect(whole.count + whole.missing_count).toBeGreaterThan(4);
      expect(await read(2)).toEqual(whole);
      expect(await read(1)).toEqual(whole);
    } finally {
      await deps.close();
    }
  });

  it("says the market was closed on a holiday, and refuses a day after the last closed session", async () => {
    const holiday = await call<ErrorBody>("/eod/bulk/XETRA?date=2026-12-24", { at: "2027-01-05" });
    expect(holiday.status).toBe(404);
    expect(holiday.body).toMatchObject({
      error: "No data found",
      reason: "market closed: Xetra (Deutsche Börse) held no session on 2026-12-24 (holiday: Christmas Eve)",
    });
    const early = await call<ErrorBody>("/eod/bulk/XETRA?date=2026-11-20", { at: AT });
    expect(early.status).toBe(400);
    expect(early.body.message).toBe("XETRA's last closed session is 2026-11-19: date must be on or before it");
    const unknown = await call<ErrorBody>("/eod/bulk/NOPE", { at: AT });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/^Exchange 'NOPE' not found; the catalogue's exchanges are /);
  });
});
