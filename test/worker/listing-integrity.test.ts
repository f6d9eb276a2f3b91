import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { storeInstrument } from "../../src/db/repositories/catalogue-additions";
import { upsertSnapshots } from "../../src/db/repositories/indicator-snapshots";
import { assets, indicatorSnapshots, listings, screenRows } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import { SNAPSHOT_FORMULA } from "../../src/domain/indicators/snapshots";
import { preferredListing } from "../../src/domain/listing-choice";
import { rng } from "../../tools/sandbox/market-data";
import { createAsset, uniqueIsin, uniqueTicker } from "../helpers/factories";

const created: number[] = [];

describe("the preferred listing, kept by the database", () => {
  const deps = buildDeps(env);
  afterAll(async () => {
    if (created.length > 0) await deps.db.delete(assets).where(inArray(assets.id, created));
    await deps.close();
  });

  /** Each asset's listing marked preferred (none: 0), and the one compareListings picks among its active ones. */
  async function marked(assetIds: number[]) {
    const rows = await deps.db.select().from(listings).where(inArray(listings.assetId, assetIds)).orderBy(listings.id);
    const out: { asset: number; marked: number[]; chosen: number }[] = [];
    for (const id of assetIds) {
      const mine = rows.filter((r) => r.assetId === id);
      out.push({
        asset: id,
        marked: mine.filter((r) => r.preferred).map((r) => r.id),
        chosen: preferredListing(mine.filter((r) => r.isActive))?.id ?? 0,
      });
    }
    return out;
  }

  const agree = (found: Awaited<ReturnType<typeof marked>>) => {
    for (const f of found) expect(f.marked, `asset ${f.asset}`).toEqual(f.chosen === 0 ? [] : [f.chosen]);
  };

  it("is the /eod choice among the active listings after every insert, update and delete, in one statement or many", async () => {
    // A fixed pseudo-random sequence: the same instruments every run.
    const next = rng(43);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T;
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) {
      const asset = await createAsset(deps.db);
      created.push(asset.id);
      ids.push(asset.id);
      const n = 1 + Math.floor(next() * 4);
      // One statement inserts all the instrument's listings: the mark is set once, at its end.
      await deps.db.insert(listings).values(
        Array.from({ length: n }, () => ({
          assetId: asset.id,
          ticker: uniqueTicker(),
          exchange: pick(["XETRA", "PAR", "LSE", null]),
          currency: pick(["EUR", "USD", "GBp"]),
          name: asset.name,
          source: "test",
          isPrimary: next() < 0.3,
          isActive: next() < 0.85,
        })),
      );
    }
    agree(await marked(ids));
    // Updates one listing at a time, and several at once.
    const all = await deps.db.select().from(listings).where(inArray(listings.assetId, ids));
    for (const l of all.slice(0, 30)) {
      await deps.db
        .update(listings)
        .set({ isActive: next() < 0.7, isPrimary: next() < 0.4, currency: pick(["EUR", "USD"]) })
        .where(eq(listings.id, l.id));
    }
    await deps.db
      .update(listings)
      .set({ isPrimary: false })
      .where(inArray(listings.assetId, ids.slice(20)));
    agree(await marked(ids));
    // A deleted listing hands the mark on.
    const gone = (await marked(ids)).filter((f) => f.chosen !== 0).slice(0, 5);
    await deps.db.delete(listings).where(
      inArray(
        listings.id,
        gone.map((g) => g.chosen),
      ),
    );
    agree(await marked(ids));
    expect((await marked(ids)).filter((f) => f.chosen !== 0).length).toBeGreaterThan(20);
  });

  it("travels to the listing's snapshots, so that a screen counts each instrument once", async () => {
    const asset = await createAsset(deps.db);
    created.push(asset.id);
    const [eur, usd] = await deps.db
      .insert(listings)
      .values(
        ["EUR", "USD"].map((currency) => ({
          assetId: asset.id,
          ticker: uniqueTicker(),
          exchange: "XETRA",
          currency,
          name: asset.name,
          source: "test",
          isPrimary: false,
        })),
      )
      .returning();
    if (!eur || !usd) throw new Error("listings not inserted");
    const snapshot = (listingId: number) => ({
      listingId,
      indicator: "rsi",
      params: '{"length":14}',
      windowBars: 500,
      formula: SNAPSHOT_FORMULA,
      value: 42,
      computable: true,
      asOf: "2026-11-27",
      windowFrom: "2024-12-02",
    });
    const row = (listingId: number, asOf = "2026-11-27") => ({
      listingId,
      asOf,
      close: 101.5,
      values: [42, null],
      windowBars: 500,
      formula: SNAPSHOT_FORMULA,
    });
    await upsertSnapshots(
      deps.db,
      [snapshot(eur.id), snapshot(usd.id)],
      [row(eur.id), row(usd.id)],
      new Date("2026-11-28T00:00:00Z"),
    );
    // The snapshots' marks and the screen rows' agree, whatever changed them.
    const marks = async () => {
      const ids = [eur.id, usd.id];
      const [snaps, rows] = await Promise.all([
        deps.db
          .select({ id: indicatorSnapshots.listingId, preferred: indicatorSnapshots.preferred })
          .from(indicatorSnapshots)
          .where(inArray(indicatorSnapshots.listingId, ids)),
        deps.db
          .select({ id: screenRows.listingId, preferred: screenRows.preferred })
          .from(screenRows)
          .where(inArray(screenRows.listingId, ids)),
      ]);
      const named = (rs: typeof snaps) =>
        Object.fromEntries(rs.map((r) => [r.id === eur.id ? "EUR" : "USD", r.preferred]));
      expect(named(rows)).toEqual(named(snaps));
      return named(snaps);
    };
    // EUR before USD by currency; then USD made primary takes the mark, snapshots included.
    expect(await marks()).toEqual({ EUR: true, USD: false });
    await deps.db.update(listings).set({ isPrimary: true }).where(eq(listings.id, usd.id));
    expect(await marks()).toEqual({ EUR: false, USD: true });
    // A later write of a snapshot leaves its mark to the marking.
    await upsertSnapshots(
      deps.db,
      [{ ...snapshot(usd.id), asOf: "2026-11-30" }],
      [row(usd.id, "2026-11-30")],
      new Date("2026-12-01T00:00:00Z"),
    );
    expect(await marks()).toEqual({ EUR: false, USD: true });
    // The instrument's last active listing gone: no snapshot of it is screened.
    await deps.db.update(listings).set({ isActive: false }).where(eq(listings.assetId, asset.id));
    expect(await marks()).toEqual({ EUR: false, USD: false });
  });
});

describe("storing an instrument whose lines another took meanwhile", () => {
  const deps = buildDeps(env);
  const mine: number[] = [];
  afterAll(async () => {
    if (mine.length > 0) await deps.db.delete(assets).where(inArray(assets.id, mine));
    await deps.close();
  });

  it("keeps nothing of it and names the conflicts: an instrument is never left without a listing", async () => {
    const owner = await createAsset(deps.db);
    mine.push(owner.id);
    const ticker = uniqueTicker();
    await deps.db.insert(listings).values({
      assetId: owner.id,
      ticker,
      exchange: "XETRA",
      currency: "EUR",
      name: owner.name,
      source: "test",
      isPrimary: true,
    });
    const late = uniqueIsin();
    const stored = await storeInstrument(deps.db, new Date("2026-11-25T12:00:00Z"), {
      isin: late,
      name: "Late Instrument",
      quoteType: "EQUITY",
      sector: null,
      industry: null,
      country: null,
      via: "request",
      keyKind: "full",
      importId: null,
      sources: {},
      reactivate: true,
      listings: [{ ticker, exchange: "XETRA", currency: "EUR", delayedSymbol: `${ticker}.DE` }],
      primary: { ticker, exchange: "XETRA", currency: "EUR" },
    });
    expect(stored.stored).toBe(false);
    expect(stored.conflicts).toEqual([{ ticker, exchange: "XETRA", currency: "EUR", ownerIsin: owner.isin }]);
    expect(await deps.db.select().from(assets).where(eq(assets.isin, late))).toEqual([]);
    const [kept] = await deps.db.select().from(listings).where(eq(listings.ticker, ticker));
    expect([kept?.assetId, kept?.preferred]).toEqual([owner.id, true]);
  });
});
