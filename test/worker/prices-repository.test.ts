import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../src/db/client";
import { readDailyBars, storedRange, upsertDailyBars } from "../../src/db/repositories/prices";
import { assets, listings, pricesDaily } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import type { Bar } from "../../src/domain/bars";

const created: number[] = [];

/** A listing of its own, so this file never races other tests over shared rows; removed afterwards. */
async function freshListing(db: DbHandle): Promise<number> {
  const tag = `${Date.now()}${Math.floor(Math.random() * 1e6)}`.slice(-10);
  const [asset] = await db.db
    .insert(assets)
    .values({ isin: `XS${tag}`, name: `Test ${tag}`, quoteType: "EQUITY" })
    .returning({ id: assets.id });
  const [listing] = await db.db
    .insert(listings)
    .values({
      assetId: Number(asset?.id),
      ticker: `T${tag}`,
      exchange: "TEST",
      currency: "EUR",
      name: `Test ${tag}`,
      source: "test",
      isPrimary: true,
    })
    .returning({ id: listings.id });
  created.push(Number(asset?.id));
  return Number(listing?.id);
}

function bars(n: number): Bar[] {
  const out: Bar[] = [];
  const d = new Date("2016-01-04T00:00:00Z");
  for (let i = 0; i < n; i++) {
    const c = Number((100 + i / 100).toFixed(2));
    out.push({
      date: d.toISOString().slice(0, 10),
      open: Number((c - 0.5).toFixed(2)),
      high: Number((c + 1.25).toFixed(2)),
      low: Number((c - 1).toFixed(2)),
      close: c,
      adjClose: Number((c * 0.97).toFixed(6)),
      volume: 1_000_000 + i,
    });
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

describe("daily prices repository (real driver path)", () => {
  const db = buildDeps(env).db;
  afterAll(async () => {
    // Deleting the instrument cascades to its listing and prices.
    for (const id of created) await db.db.delete(assets).where(eq(assets.id, id));
    await db.close();
  });

  it("upserts 2,600 bars in batches, exactly, and a rerun changes and loses nothing", async () => {
    const id = await freshListing(db);
    const series = bars(2600);
    expect(await upsertDailyBars(db.db, id, series, "delayed_provider")).toBe(2600);
    expect(await storedRange(db.db, id)).toEqual({ first: "2016-01-04", last: series.at(-1)?.date, count: 2600 });
    const stamp = await db.db
      .select({ u: pricesDaily.updatedAt })
      .from(pricesDaily)
      .where(eq(pricesDaily.listingId, id))
      .limit(1);

    expect(await upsertDailyBars(db.db, id, series, "delayed_provider")).toBe(0);
    const again = await db.db
      .select({ u: pricesDaily.updatedAt })
      .from(pricesDaily)
      .where(eq(pricesDaily.listingId, id))
      .limit(1);
    expect(again[0]?.u).toEqual(stamp[0]?.u);
    expect(await readDailyBars(db.db, id)).toEqual(series);
  });

  it("rewrites only the bars that changed, and reads windows and the last N bars", async () => {
    const id = await freshListing(db);
    const series = bars(30);
    await upsertDailyBars(db.db, id, series, "delayed_provider");
    const revised = series.map((b, i) => (i === 29 ? { ...b, close: 123.456789, volume: 7 } : b));
    expect(await upsertDailyBars(db.db, id, revised, "delayed_provider")).toBe(1);
    // The same values from another provider relabel every bar: data_source says who stored what is there.
    expect(await upsertDailyBars(db.db, id, revised, "stream_provider")).toBe(30);
    const sources = await db.db
      .selectDistinct({ s: pricesDaily.dataSource })
      .from(pricesDaily)
      .where(eq(pricesDaily.listingId, id));
    expect(sources).toEqual([{ s: "stream_provider" }]);
    const last = await readDailyBars(db.db, id, { lastBars: 2 });
    expect(last.map((b) => [b.date, b.close, b.volume])).toEqual([
      [series[28]?.date, series[28]?.close, series[28]?.volume],
      [series[29]?.date, 123.456789, 7],
    ]);
    const window = await readDailyBars(db.db, id, { from: "2016-01-10", to: "2016-01-12" });
    expect(window.map((b) => b.date)).toEqual(["2016-01-10", "2016-01-11", "2016-01-12"]);
    expect(await storedRange(db.db, 2_000_000_000)).toBeNull();
  });
});
