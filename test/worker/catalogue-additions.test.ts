import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import type { AdditionAnswer as Addition } from "../../src/routes/catalogue/additions-schema";
import type { Asset, ListingsAnswer } from "../../src/routes/catalogue/schema";
import type { EodAnswer } from "../../src/routes/eod/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import type { SearchBody } from "../../src/routes/search/schema";
import { WORLD, type WorldInstrument, worldIsin } from "../../tools/sandbox/world";
import { withDb } from "../helpers/db";
import { READ_ONLY_KEY } from "../helpers/keys";
import { fault, simRequests } from "../helpers/listings";
import { type CallOptions, call } from "../helpers/worker-http";

/**
 * The whole market (issue 43): instruments join the catalogue by ISIN or by symbol from what the
 * simulated providers say of the sandbox's world (tools/sandbox/world.ts), on every supported venue,
 * and leave it by DELETE. The service's clock is pinned; the world's instruments are fixed by index.
 */
const at = "2026-11-25";
const ask = <T>(path: string, opts: CallOptions = {}) => call<T>(path, { at, ...opts });
const post = (body: unknown, opts: CallOptions = {}) => ask<Addition>("/assets", { method: "POST", body, ...opts });

const first = (pick: (w: WorldInstrument) => boolean): WorldInstrument => {
  const w = WORLD.find(pick);
  if (!w) throw new Error("no such world instrument");
  return w;
};
const home = (w: WorldInstrument) => w.lines[0]?.exchange;
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

describe("POST /assets by ISIN", () => {
  // Index 0: a Nasdaq share that also trades on Xetra (in euros) and on Frankfurt, a venue the catalogue lacks.
  const dual = WORLD[0] as WorldInstrument;

  it("adds a share with its listings on supported venues, its home line primary, and says where each field came from", async () => {
    expect(dual.lines.map((l) => `${l.symbol} ${l.exchange}`)).toEqual(["ZAAA NASDAQ", "ZAAA.DE XETRA", "ZAAA.F FRA"]);
    const { status, body } = await post({ isin: dual.isin });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      status: "added",
      isin: dual.isin,
      name: dual.name,
      quote_type: "EQUITY",
      ticker: "ZAAA",
      exchange: "NASDAQ",
      currency: "USD",
      added_via: "request",
      added_by_key: "full",
    });
    expect(body.listings.map((l) => [l.ticker, l.exchange, l.currency, l.is_primary, l.source]).sort()).toEqual([
      ["ZAAA", "NASDAQ", "USD", true, "delayed_provider"],
      ["ZAAA.DE", "XETRA", "EUR", false, "delayed_provider"],
    ]);
    expect(body.added_listings.sort()).toEqual(["ZAAA", "ZAAA.DE"]);
    expect(body.refused_listings).toEqual([
      { symbol: "ZAAA.F", reason: "ZAAA.F trades on FRA, a venue the catalogue does not support" },
    ]);
    expect(body.found_by).toMatchObject({
      isin: "asked",
      "listing ZAAA": `delayed provider search for ${dual.isin}; its chart quotes in USD`,
      "listing ZAAA.DE": `delayed provider search for ${dual.isin}; its chart quotes in EUR`,
    });

    // Asked again: known, nothing changed, the same answer whoever asks.
    const again = await post({ isin: dual.isin.toLowerCase() });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("known");
    expect(again.body.added_listings).toEqual([]);
    expect(again.body.listings).toEqual(body.listings);
  });

  it("serves the added share like a seed one: its bars, the search, the listings", async () => {
    const eod = await ask<EodAnswer>("/eod/ZAAA?period=1y");
    expect(eod.status).toBe(200);
    expect(eod.body.data.length).toBeGreaterThan(200);
    expect(eod.body.data.filter((b) => weekday(b.Date) === 0 || weekday(b.Date) === 6)).toEqual([]);
    const search = await ask<SearchBody>("/search?q=ZAAA");
    expect(search.body.results[0]).toMatchObject({ in_catalogue: true, isin: dual.isin, ticker: "ZAAA" });
    const listings = await ask<ListingsAnswer>(`/listings?isin=${dual.isin}`);
    expect(listings.body.count).toBe(2);
  });

  it("takes it out with DELETE: gone from the listings and the by-ISIN answer, its prices kept; a POST brings it back", async () => {
    const removed = await ask<{ removed_at: string; deactivated_listings: string[] }>(`/assets/${dual.isin}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(200);
    expect(removed.body.deactivated_listings.sort()).toEqual(["ZAAA", "ZAAA.DE"]);
    const day = removed.body.removed_at.slice(0, 10);
    expect((await ask<ListingsAnswer>(`/listings?isin=${dual.isin}`)).body.count).toBe(0);
    const byIsin = await ask<ErrorBody>(`/assets/by-isin/${dual.isin}`);
    expect([byIsin.status, byIsin.body.reason]).toEqual([404, `removed from the catalogue on ${day}`]);
    // A read never brings it back; its stored bars stay.
    const eod = await ask<ErrorBody>("/eod/ZAAA?period=1mo");
    expect(eod.status).toBe(404);
    expect(eod.body.reason).toContain(`removed from the catalogue on ${day}`);
    const stored = await withDb((db) =>
      db.execute<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM prices_daily p JOIN listings l ON l.id = p.listing_id WHERE l.ticker = 'ZAAA'`),
    );
    expect(stored.rows[0]?.n).toBeGreaterThan(200);
    // A repeated DELETE answers the first removal's date.
    const twice = await ask<{ removed_at: string }>(`/assets/${dual.isin}`, { method: "DELETE" });
    expect(twice.body.removed_at).toBe(removed.body.removed_at);

    // A line delisted before the removal (one the provider no longer confirms) stays out when it comes back.
    await withDb((db) =>
      db.execute(sql`
        INSERT INTO listings (asset_id, ticker, exchange, currency, name, source, is_primary, is_active)
        SELECT id, 'ZAAAX', 'PAR', 'EUR', name, 'delayed_provider', false, false FROM assets WHERE isin = ${dual.isin}`),
    );
    const back = await post({ isin: dual.isin });
    expect([back.status, back.body.status]).toEqual([201, "reactivated"]);
    const listed = await ask<ListingsAnswer>(`/listings?isin=${dual.isin}`);
    expect(listed.body.listings.map((l) => l.ticker).sort()).toEqual(["ZAAA", "ZAAA.DE"]);
  });

  it("dates a Sydney share's bars by its session day and stores a London share in pounds", async () => {
    const sydney = first((w) => home(w) === "ASX" && w.quoteType === "EQUITY" && w.lines.length === 1);
    const london = first((w) => home(w) === "LSE" && w.quoteType === "EQUITY" && w.lines.length === 1);
    for (const w of [sydney, london]) expect((await post({ isin: w.isin })).status).toBe(201);
    const ticker = sydney.lines[0]?.symbol ?? "";
    const eod = await ask<EodAnswer>(`/eod/${ticker}?period=1mo`);
    expect(eod.status).toBe(200);
    // The opens are stamped at 23:00 UTC the evening before: dated by the UTC day they would fall on Sundays.
    expect(eod.body.data.length).toBeGreaterThan(15);
    expect(eod.body.data.filter((b) => weekday(b.Date) === 0 || weekday(b.Date) === 6)).toEqual([]);
    const uk = await ask<Asset>(`/assets/by-isin/${london.isin}`);
    expect([uk.body.ticker, uk.body.exchange, uk.body.currency]).toEqual([london.lines[0]?.symbol, "LSE", "GBP"]);
  });

  it("refuses an ISIN with a wrong check digit (400), answers 404 for one no provider knows and remembers it, 422 for one traded only elsewhere", async () => {
    const typo = await post({ isin: `${dual.isin.slice(0, 11)}${(Number(dual.isin.at(-1)) + 1) % 10}` });
    expect(typo.status).toBe(400);
    const unknown = worldIsin("DE", 91_234, "N");
    const miss = await ask<ErrorBody>("/assets", { method: "POST", body: { isin: unknown } });
    expect([miss.status, miss.body.reason]).toEqual([404, `no provider knows ${unknown}`]);
    const searches = async () => (await simRequests(inject("delayedSimUrl")))[`search ${unknown}`] ?? 0;
    const asked = await searches();
    expect(asked).toBe(1);
    const remembered = await ask<ErrorBody>("/assets", { method: "POST", body: { isin: unknown } });
    expect(remembered.status).toBe(404);
    expect(remembered.body.reason).toBe(`no provider knows ${unknown}`);
    // Remembered: the same question within the day asks no provider.
    expect(await searches()).toBe(asked);
    const warsaw = first((w) => home(w) === "WSE");
    const elsewhere = await ask<ErrorBody>("/assets", { method: "POST", body: { isin: warsaw.isin } });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.message).toContain(
      `${warsaw.lines[0]?.symbol} trades on WSE, a venue the catalogue does not support`,
    );
  });

  it("finds a fund its ISIN search misses through the directory, and never remembers a directory that failed as a miss", async () => {
    // An ETF whose ISIN the delayed provider's search misses, as with real UCITS funds.
    const fund = first((w) => w.quoteType === "ETF" && !w.isinSearchable && w.lines.length === 1);
    await fault(inject("scrapedSimUrl"), `suggest ${fund.isin}`, "500");
    const failed = await ask<ErrorBody>("/assets", { method: "POST", body: { isin: fund.isin } });
    expect(failed.status).toBe(503);
    // Asked again once the directory answers: added, not a remembered "no provider knows".
    const added = await post({ isin: fund.isin });
    expect([added.status, added.body.status, added.body.ticker]).toEqual([201, "added", fund.lines[0]?.symbol]);
    expect(added.body.found_by[`listing ${fund.lines[0]?.symbol}`]).toContain(`states ${fund.isin} for ${fund.name}`);
  });

  it("never moves a listing that another instrument holds", async () => {
    const taken = first((w) => home(w) === "PAR" && w.quoteType === "EQUITY" && w.lines.length === 1);
    const line = taken.lines[0];
    if (!line) throw new Error("no line");
    // The line held by the instrument this file added first (test data of its own, removed after).
    const owner = (WORLD[0] as WorldInstrument).isin;
    await withDb((db) =>
      db.execute(sql`
        INSERT INTO listings (asset_id, ticker, exchange, currency, name, source, is_primary, is_active)
        SELECT id, ${line.symbol}, 'PAR', 'EUR', name, 'delayed_provider', false, true FROM assets WHERE isin = ${owner}`),
    );
    try {
      const { status, body } = await post({ isin: taken.isin });
      expect(status).toBe(422);
      expect((body as unknown as ErrorBody).message).toContain(
        `${line.symbol} on PAR in EUR is a listing of ${owner}; a listing is never moved to another instrument`,
      );
    } finally {
      await withDb((db) => db.execute(sql`DELETE FROM listings WHERE ticker = ${line.symbol} AND exchange = 'PAR'`));
    }
  });
});

describe("POST /assets by symbol, and lists", () => {
  it("adds by symbol with the ISIN a source states for that line, and refuses a symbol over 10 characters", async () => {
    const zurich = first((w) => home(w) === "SIX" && w.quoteType === "EQUITY" && w.lines.length === 1);
    const symbol = zurich.lines[0]?.symbol ?? "";
    const { status, body } = await post({ symbol, exchange: "SIX" });
    expect(status).toBe(201);
    expect([body.isin, body.ticker, body.exchange, body.currency]).toEqual([zurich.isin, symbol, "SIX", "CHF"]);
    expect(body.found_by.isin).toContain(`states ${zurich.isin} for ${symbol.split(".")[0]}`);
    const long = await ask<ErrorBody>("/assets", { method: "POST", body: { symbol: "ABCDEFGHIJK.DE" } });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain("a ticker has at most 10 characters (spec Limits)");
  });

  it("answers each item of a list on its own: 201 when one was added", async () => {
    const tokyo = first((w) => home(w) === "TSE" && w.quoteType === "EQUITY");
    const { status, body } = await ask<{ results: { http_status: number }[]; added: number; failed: number }>(
      "/assets",
      {
        method: "POST",
        body: { items: [{ isin: tokyo.isin }, { isin: worldIsin("JP", 91_235, "N") }, { symbol: "AAPL" }] },
      },
    );
    expect(status).toBe(201);
    expect(body.results.map((r) => r.http_status)).toEqual([201, 404, 200]);
    expect([body.added, body.failed]).toEqual([1, 1]);
  });
});

describe("discovery on read", () => {
  it("adds an instrument a read names by ISIN or by symbol, recording that a read-only key's read brought it", async () => {
    const hk = first((w) => home(w) === "HKEX" && w.quoteType === "EQUITY");
    const found = await ask<Asset>(`/assets/by-isin/${hk.isin}`, { key: READ_ONLY_KEY });
    expect(found.status).toBe(200);
    expect([found.body.ticker, found.body.exchange, found.body.currency]).toEqual([hk.lines[0]?.symbol, "HKEX", "HKD"]);
    const toronto = first((w) => home(w) === "TSX" && w.quoteType === "EQUITY" && w.lines.length === 1);
    const eod = await ask<EodAnswer>(`/eod/${toronto.lines[0]?.symbol}?period=1mo`, { key: READ_ONLY_KEY });
    expect(eod.status).toBe(200);
    const rows = await withDb((db) =>
      db.execute<{ isin: string; added_via: string; added_by_key: string }>(sql`
        SELECT isin, added_via, added_by_key FROM assets WHERE isin IN (${hk.isin}, ${toronto.isin}) ORDER BY isin`),
    );
    expect(rows.rows.map((r) => [r.isin, r.added_via, r.added_by_key])).toEqual(
      [
        [hk.isin, "discovery", "read_only"],
        [toronto.isin, "discovery", "read_only"],
      ].sort(),
    );
    const none = await ask<ErrorBody>("/eod/ZZQQ9?period=1mo", { key: READ_ONLY_KEY });
    expect([none.status, none.body.reason]).toEqual([
      404,
      "ZZQQ9 is not a listing of the catalogue; no provider knows ZZQQ9",
    ]);
  });

  it("answers reads that discover one instrument at once with that instrument, the same whoever stored it", async () => {
    const oslo = first((w) => home(w) === "OSL" && w.quoteType === "EQUITY");
    const reads = await Promise.all(
      Array.from({ length: 4 }, () => ask<Asset>(`/assets/by-isin/${oslo.isin}`, { key: READ_ONLY_KEY })),
    );
    expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // Whoever stored it, every read answers the same instrument with the same listings.
    expect(new Set(reads.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect([reads[0]?.body.isin, reads[0]?.body.exchange]).toEqual([oslo.isin, "OSL"]);
  });

  it("bounds a key's additions per minute: 429 with Retry-After past CATALOGUE_ADDITIONS_PER_MINUTE", async () => {
    // Each ISIN is new (a miss is remembered and costs nothing the second time); one minute's
    // boundary may fall inside the run, so twice the budget and one more must meet the limit.
    const limit = 20;
    let refused: { index: number; retryAfter: string | null } | null = null;
    for (let i = 0; i <= 2 * limit && !refused; i++) {
      const r = await ask<ErrorBody>(`/assets/by-isin/${worldIsin("CA", 92_000 + i, "N")}`, {
        key: READ_ONLY_KEY,
        env: { CATALOGUE_ADDITIONS_PER_MINUTE: String(limit) },
      });
      if (r.status === 429) refused = { index: i, retryAfter: r.headers.get("retry-after") };
      else expect(r.status).toBe(404);
    }
    expect(refused).not.toBeNull();
    expect(Number(refused?.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused?.retryAfter)).toBeLessThanOrEqual(60);
  });
});
