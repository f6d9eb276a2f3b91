import { env } from "cloudflare:workers";
import { and, eq, gte, lt, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { assets, listings, pricesDaily } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import type { EodAnswer, EodBar } from "../../src/routes/eod/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { createListing, uniqueTicker } from "../helpers/factories";
import { clearFault, fault, forgetCached, resetTickers, simRequests } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");
const stream = inject("streamSimUrl");

/** Closes of the delayed provider's own chart, as its client rounds them (to cents). */
async function providerCloses(symbol: string, from: string, to: string): Promise<Map<string, number>> {
  const p1 = Date.parse(`${from}T00:00:00Z`) / 1000;
  const p2 = Date.parse(`${to}T00:00:00Z`) / 1000 + 86400;
  const res = await fetch(`${yahoo}/v8/finance/chart/${symbol}?period1=${p1}&period2=${p2}&interval=1d`);
  const body = (await res.json()) as {
    chart: { result: { timestamp: number[]; indicators: { quote: { close: (number | null)[] }[] } }[] };
  };
  const r = body.chart.result[0];
  const out = new Map<string, number>();
  r?.timestamp.forEach((t, i) => {
    const c = r.indicators.quote[0]?.close[i];
    if (c !== null && c !== undefined)
      out.set(new Date(t * 1000).toISOString().slice(0, 10), Math.round(c * 100) / 100);
  });
  return out;
}

describe("GET /eod/{ticker}: ingestion on first request, then the database", () => {
  beforeAll(() => resetTickers("MC.PA"));

  it("ingests MC.PA from the delayed provider, then answers the same bars from the database", async () => {
    const first = await call<EodAnswer>("/eod/mc.pa?period=1y");
    expect(first.status).toBe(200);
    expect(first.body.data_source).toBe("delayed_provider");
    expect(first.body.ticker).toBe("MC.PA");
    expect(first.body.listing).toEqual({ ticker: "MC.PA", isin: "FR0000121014", currency: "EUR", exchange: "PAR" });
    expect(first.body.period).toBe("1y");
    expect(first.body.format).toBe("json");
    expect(first.body.retrieved_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
    // A year of sessions (the simulator trades every weekday but 1 January and 25 December), less the few null slots.
    expect(first.body.count).toBeGreaterThan(245);
    expect(first.body.count).toBeLessThanOrEqual(262);
    expect(first.body.data).toHaveLength(first.body.count);
    const data = first.body.data;
    for (let i = 1; i < data.length; i++) expect((data[i]?.Date ?? "") > (data[i - 1]?.Date ?? "")).toBe(true);

    // Same prices as the provider's chart, to the cent.
    const firstDate = data[0]?.Date ?? "";
    const lastDate = data.at(-1)?.Date ?? "";
    const closes = await providerCloses("MC.PA", firstDate, lastDate);
    expect(closes.size).toBe(data.length);
    for (const b of data) expect(b.Close).toBe(closes.get(b.Date));
    // Dividends: the adjusted close of older bars sits below the close.
    expect(data.some((b) => b["Adj Close"] < b.Close)).toBe(true);

    const second = await call<EodAnswer>("/eod/MC.PA?period=1y");
    expect(second.status).toBe(200);
    expect(second.body.data_source).toBe("database");
    expect(second.body.data).toEqual(first.body.data);
  });

  it("gives the CSV form with the spec's header and the same figures", async () => {
    const json = await call<EodAnswer>("/eod/MC.PA?period=3mo");
    const csv = await call<string>("/eod/MC.PA?period=3mo&fmt=csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = csv.body.trim().split("\n");
    expect(lines[0]).toBe("Date,Open,High,Low,Close,Adj Close,Volume");
    expect(lines).toHaveLength(json.body.count + 1);
    const b = json.body.data[0];
    expect(lines[1]).toBe(`${b?.Date},${b?.Open},${b?.High},${b?.Low},${b?.Close},${b?.["Adj Close"]},${b?.Volume}`);
  });

  it("aggregates weekly bars that agree with the daily ones", async () => {
    const daily = (await call<EodAnswer>("/eod/MC.PA?period=daily")).body.data;
    const weekly = await call<EodAnswer>("/eod/MC.PA?period=weekly");
    expect(weekly.status).toBe(200);
    const weeks = weekly.body.data;
    // Group the daily bars by the Monday of their week, independently of the service's code.
    const monday = (d: string) => {
      const t = new Date(`${d}T00:00:00Z`);
      t.setUTCDate(t.getUTCDate() - ((t.getUTCDay() + 6) % 7));
      return t.toISOString().slice(0, 10);
    };
    const groups = new Map<string, EodBar[]>();
    for (const b of daily) groups.set(monday(b.Date), [...(groups.get(monday(b.Date)) ?? []), b]);
    expect(weeks).toHaveLength(groups.size);
    for (const w of weeks) {
      const days = groups.get(monday(w.Date)) ?? [];
      expect(w.Date).toBe(days[0]?.Date);
      expect(w.Open).toBe(days[0]?.Open);
      expect(w.High).toBe(Math.max(...days.map((d) => d.High)));
      expect(w.Low).toBe(Math.min(...days.map((d) => d.Low)));
      expect(w.Close).toBe(days.at(-1)?.Close);
      expect(w["Adj Close"]).toBe(days.at(-1)?.["Adj Close"]);
      expect(w.Volume).toBe(days.reduce((n, d) => n + d.Volume, 0));
    }
    // Ten years were ingested on the first request.
    expect(daily[0]?.Date.slice(0, 4)).toBe(String(new Date().getUTCFullYear() - 10));
  });

  it("orders newest first with order=d, and serves from/to and 5d windows", async () => {
    const asc = (await call<EodAnswer>("/eod/MC.PA?period=1mo")).body.data;
    const desc = (await call<EodAnswer>("/eod/MC.PA?period=1mo&order=d")).body.data;
    expect(desc).toEqual([...asc].reverse());
    const five = await call<EodAnswer>("/eod/MC.PA?period=5d");
    expect(five.body.count).toBe(5);
    expect(five.body.data).toEqual(asc.slice(-5));
    const from = asc[2]?.Date ?? "";
    const to = asc[6]?.Date ?? "";
    const ranged = await call<EodAnswer>(`/eod/MC.PA?from=${from}&to=${to}`);
    expect(ranged.body.period).toBe("custom");
    expect(ranged.body.data).toEqual(asc.slice(2, 7));
  });
});

describe("GET /eod/{ticker}: a stored series missing its newest sessions", () => {
  beforeAll(() => resetTickers("JNJ"));

  /** Deletes the stored JNJ bars `where` picks (given the listing's id) and forgets its cached answers. */
  const deleteJnjBars = async (where: (listingId: number) => SQL | undefined) => {
    const deps = buildDeps(env);
    try {
      const [jnj] = await deps.db.select({ id: listings.id }).from(listings).where(eq(listings.ticker, "JNJ"));
      await deps.db.delete(pricesDaily).where(where(Number(jnj?.id)));
    } finally {
      await deps.close();
    }
    await forgetCached("eod:JNJ:*");
  };

  it("is topped up from the provider and answered from the database", async () => {
    const first = await call<EodAnswer>("/eod/JNJ?period=1mo");
    expect(first.body.data_source).toBe("delayed_provider");
    const data = first.body.data;
    await deleteJnjBars((listingId) =>
      and(eq(pricesDaily.listingId, listingId), gte(pricesDaily.date, data.at(-3)?.Date ?? "")),
    );
    const again = await call<EodAnswer>("/eod/JNJ?period=1mo");
    expect(again.body.data_source).toBe("database");
    expect(again.body.data).toEqual(data);
  });

  it("is filled in from the window's first day when its older prices were deleted (as by a cleanup)", async () => {
    const year = await call<EodAnswer>("/eod/JNJ?period=1y");
    expect(year.body.count).toBeGreaterThan(240);
    const keep = year.body.data.at(-20)?.Date ?? "";
    await deleteJnjBars((listingId) => and(eq(pricesDaily.listingId, listingId), lt(pricesDaily.date, keep)));
    const again = await call<EodAnswer>("/eod/JNJ?period=1y");
    expect(again.body.data_source).toBe("database");
    expect(again.body.data).toEqual(year.body.data);
  });
});

describe("GET /eod/{ticker}: listing choice and ISIN rules", () => {
  beforeAll(() => resetTickers("RACE"));

  it("takes the primary listing, and isin plus currency names the other one", async () => {
    const primary = await call<EodAnswer>("/eod/RACE?period=5d");
    expect(primary.status).toBe(200);
    expect(primary.body.listing).toEqual({ ticker: "RACE", isin: "NL0011585146", currency: "EUR", exchange: "MIL" });
    const usd = await call<EodAnswer>("/eod/RACE?period=5d&isin=nl0011585146&currency=usd");
    expect(usd.status).toBe(200);
    expect(usd.body.listing).toEqual({ ticker: "RACE", isin: "NL0011585146", currency: "USD", exchange: "NYSE" });
    // Two different lines: different prices.
    expect(usd.body.data[0]?.Close).toBeTypeOf("number");
    expect(usd.body.data[0]?.Close).not.toBe(primary.body.data[0]?.Close);
    const byExchange = await call<EodAnswer>("/eod/RACE?period=5d&exchange=nyse");
    expect(byExchange.body.listing.exchange).toBe("NYSE");
  });

  it("tries the unsuffixed ticker within the named instrument only", async () => {
    const res = await call<EodAnswer>("/eod/RACE.DE?period=5d&isin=NL0011585146");
    expect(res.status).toBe(200);
    expect(res.body.listing).toEqual({ ticker: "RACE", isin: "NL0011585146", currency: "EUR", exchange: "MIL" });
    const other = await call<ErrorBody>("/eod/AAPL?period=5d&isin=NL0011585146");
    expect(other.status).toBe(404);
    expect(other.body).toEqual({
      error: "No data found",
      message: expect.any(String),
      reason: "no listing of AAPL for ISIN NL0011585146 in the catalogue",
    });
  });

  it("answers 404 with a reason when no listing has the currency", async () => {
    const res = await call<ErrorBody>("/eod/RACE?period=5d&isin=NL0011585146&currency=GBP");
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("No data found");
    expect(res.body.reason).toContain("no listing of RACE for ISIN NL0011585146 and currency GBP");
  });
});

describe("GET /eod/{ticker}: bad input", () => {
  it.each([
    ["an 11-character ticker", "/eod/ABCDEFGHIJK?period=1y"],
    ["a bad period", "/eod/AAPL?period=2w"],
    ["from without to", "/eod/AAPL?from=2024-01-02"],
    ["no period and no dates", "/eod/AAPL"],
    ["a malformed ISIN", "/eod/AAPL?period=1y&isin=US03783310"],
    ["an impossible date", "/eod/AAPL?from=2024-02-30&to=2024-03-10"],
    ["from after to", "/eod/AAPL?from=2024-03-10&to=2024-03-01"],
    ["a bad format", "/eod/AAPL?period=1y&fmt=xml"],
    ["a bad order", "/eod/AAPL?period=1y&order=z"],
    ["a ticker with a glob", "/eod/AA*L?period=1y"],
    ["a window period with dates", "/eod/AAPL?period=1y&from=2024-01-02&to=2024-02-01"],
  ])("refuses %s with 400 Invalid request", async (_what, path) => {
    const res = await call<ErrorBody>(path);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid request");
    expect(res.body.message.length).toBeGreaterThan(5);
  });

  it("answers that the market was closed for a past window of holidays and a weekend, and asks no provider", async () => {
    await resetTickers("SAP.DE");
    const asked = async () =>
      Object.entries(await simRequests(yahoo)).filter(([what]) => /SAP|DE0007164600/.test(what));
    const before = await asked();
    const res = await call<ErrorBody>("/eod/SAP.DE?from=2026-12-24&to=2026-12-27", { at: "2027-01-05" });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("No data found");
    expect(res.body.message).toBe("No data found for SAP.DE: the market was closed");
    expect(res.body.reason).toBe(
      "market closed: Xetra (Deutsche Börse) held no session from 2026-12-24 to 2026-12-27 (2026-12-24 holiday: Christmas Eve; 2026-12-25 holiday: Christmas Day; 2026-12-26 weekend; 2026-12-27 weekend)",
    );
    expect(await asked()).toEqual(before);
  });

  it("answers 404 with a reason for a ticker the catalogue does not have", async () => {
    const res = await call<ErrorBody>("/eod/NOSUCH?period=1y");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: "No data found",
      message: "No data found for NOSUCH",
      reason: "NOSUCH is not a listing of the catalogue; no provider knows NOSUCH",
    });
  });
});

describe("GET /eod/{ticker}: a listing no provider knows", () => {
  const deps = buildDeps(env);
  // A Paris ticker, so the stream provider is asked too (as EURONEXT:<ticker without .PA>).
  const ticker = uniqueTicker(".PA");
  let isin = "";
  beforeAll(async () => {
    const listing = await createListing(deps.db, { ticker, exchange: "PAR", currency: "EUR" });
    isin = listing.asset.isin;
  });
  afterAll(async () => {
    await deps.db.delete(assets).where(eq(assets.isin, isin));
    await deps.close();
  });

  it("answers 404 with what each provider said, and remembers the failed search", async () => {
    const res = await call<ErrorBody>(`/eod/${ticker}?period=1y`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: "No data found",
      message: `No data found for ${ticker}`,
      reason: `delayed_provider: the delayed provider has no symbol of ${isin} on PAR quoted in EUR; stream_provider: unknown symbol EURONEXT:${ticker.slice(0, -3)}: invalid symbol`,
    });
    const [row] = await deps.db
      .select({ symbol: listings.delayedSymbol, checked: listings.delayedSymbolCheckedAt })
      .from(listings)
      .where(eq(listings.ticker, ticker));
    expect(row?.symbol).toBeNull();
    expect(row?.checked).toBeInstanceOf(Date);
  });
});

describe("GET /eod/{ticker}: failing providers", () => {
  beforeAll(() => resetTickers("SAP.DE", "ASML.AS", "EL.PA", "TTE.PA", "AIR.PA", "SIE.DE", "SWDA.L", "EUNL.DE"));

  it.each([
    ["HTTP 500", "SAP.DE", "500"],
    ["a timeout", "ASML.AS", "timeout"],
    ["a malformed body", "EL.PA", "malformed"],
    ["a rate limit", "TTE.PA", "ratelimit"],
  ])("falls back to the stream provider on %s", async (_what, ticker, mode) => {
    await fault(yahoo, ticker, mode, 1_000);
    const res = await call<EodAnswer>(`/eod/${ticker}?period=1mo`);
    expect(res.status).toBe(200);
    expect(res.body.data_source).toBe("stream_provider");
    expect(res.body.count).toBeGreaterThan(15);
    // The stream provider gives no dividend adjustment: Adj Close equals Close.
    for (const b of res.body.data) expect(b["Adj Close"]).toBe(b.Close);
    // Same traded prices as the delayed provider's (both split-adjusted).
    await clearFault(yahoo, ticker);
    const closes = await providerCloses(ticker, res.body.data[0]?.Date ?? "", res.body.data.at(-1)?.Date ?? "");
    for (const b of res.body.data) expect(b.Close).toBe(closes.get(b.Date));
  });

  it("answers 503 naming both providers when one failed and the other knows no such symbol: a retry may succeed", async () => {
    // The ISIN search and the symbol's chart, not every request (other test files run beside this one).
    await fault(yahoo, "NL0000235190", "500", 1_000);
    await fault(yahoo, "AIR.PA", "500", 1_000);
    await fault(stream, "EURONEXT:AIR", "symbol_error", 1_000);
    const res = await call<ErrorBody>("/eod/AIR.PA?period=1y");
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("Upstream unavailable");
    expect(res.body.reason).toBe(
      "delayed_provider: HTTP 500; stream_provider: unknown symbol EURONEXT:AIR: invalid symbol",
    );
    expect(res.body.message).toBe(`No provider could serve AIR.PA now: ${res.body.reason}`);
  });

  it("gives a clear 503, not a 404 or a 500, when the stream provider drops the connection too", async () => {
    await fault(yahoo, "SIE.DE", "500", 1_000);
    await fault(stream, "XETR:SIE", "drop", 1_000);
    const res = await call<ErrorBody>("/eod/SIE.DE?period=1mo");
    expect(res.status).toBe(503);
    expect(res.body.reason).toBe(
      "delayed_provider: HTTP 500; stream_provider: connection closed before the series completed",
    );
  });

  it("finds a UCITS fund by name when its ISIN search is empty, on the listing's own exchange", async () => {
    const res = await call<EodAnswer>("/eod/EUNL.DE?period=1mo");
    expect(res.status).toBe(200);
    expect(res.body.data_source).toBe("delayed_provider");
    expect(res.body.listing).toEqual({ ticker: "EUNL.DE", isin: "IE00B4L5Y983", currency: "EUR", exchange: "XETRA" });
    expect(res.body.data.length).toBeGreaterThan(0);
    // The same fund trades as IWDA.AS in EUR too: the prices must be Xetra's line, not Amsterdam's.
    const xetra = await providerCloses("EUNL.DE", res.body.data[0]?.Date ?? "", res.body.data.at(-1)?.Date ?? "");
    for (const b of res.body.data) expect(b.Close).toBe(xetra.get(b.Date));
  });

  it("stores London's pence as the listing's pounds", async () => {
    const res = await call<EodAnswer>("/eod/SWDA.L?period=1mo");
    expect(res.status).toBe(200);
    expect(res.body.data_source).toBe("delayed_provider");
    expect(res.body.listing.currency).toBe("GBP");
    expect(res.body.data.length).toBeGreaterThan(0);
    const pence = await providerCloses("SWDA.L", res.body.data[0]?.Date ?? "", res.body.data.at(-1)?.Date ?? "");
    for (const b of res.body.data) expect(b.Close).toBe(Number(((pence.get(b.Date) ?? Number.NaN) / 100).toFixed(8)));
  });
});
