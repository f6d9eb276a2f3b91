import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { listingSpans } from "../../src/db/repositories/listing-prices";
import { readDailyBars } from "../../src/db/repositories/prices";
import { upsertDailyBars } from "../../src/db/repositories/prices-write";
import { assets, pricesDaily } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import { createListing, makeBars, storeBars } from "../helpers/factories";

const created: number[] = [];

describe("daily prices repository (real driver path)", () => {
  const deps = buildDeps(env);
  afterAll(async () => {
    // Deleting the instrument cascades to its listing and prices.
    for (const id of created) await deps.db.delete(assets).where(eq(assets.id, id));
    await deps.close();
  });

  /** A listing of its own, so this file never races other tests over shared rows; removed afterwards. */
  async function freshListing(): Promise<number> {
    const listing = await createListing(deps.db);
    created.push(listing.assetId);
    return listing.id;
  }

  it("upserts 2,600 bars in batches, exactly, and a rerun changes and loses nothing", async () => {
    const id = await freshListing();
    const series = makeBars(2600);
    expect(await upsertDailyBars(deps.db, id, series, "delayed_provider")).toBe(2600);
    expect((await listingSpans(deps.db, id, "")).stored).toEqual({
      first: "2016-01-04",
      last: series.at(-1)?.date,
      count: 2600,
    });
    const stamp = await deps.db
      .select({ u: pricesDaily.updatedAt })
      .from(pricesDaily)
      .where(eq(pricesDaily.listingId, id))
      .limit(1);

    expect(await upsertDailyBars(deps.db, id, series, "delayed_provider")).toBe(0);
    const again = await deps.db
      .select({ u: pricesDaily.updatedAt })
      .from(pricesDaily)
      .where(eq(pricesDaily.listingId, id))
      .limit(1);
    expect(again[0]?.u).toEqual(stamp[0]?.u);
    expect(await readDailyBars(deps.db, id)).toEqual(series);
  });

  it("rewrites only the bars that changed, and reads windows and the last N bars", async () => {
    const id = await freshListing();
    const series = makeBars(30);
    await storeBars(deps.db, id, series, "delayed_provider");
    const revised = series.map((b, i) => (i === 29 ? { ...b, close: 123.456789, volume: 7 } : b));
    expect(await upsertDailyBars(deps.db, id, revised, "delayed_provider")).toBe(1);
    // The same values from another provider relabel every bar: data_source says who stored what is there.
    expect(await upsertDailyBars(deps.db, id, revised, "stream_provider")).toBe(30);
    const sources = await deps.db
      .selectDistinct({ s: pricesDaily.dataSource })
      .from(pricesDaily)
      .where(eq(pricesDaily.listingId, id));
    expect(sources).toEqual([{ s: "stream_provider" }]);
    const last = await readDailyBars(deps.db, id, { lastBars: 2 });
    expect(last.map((b) => [b.date, b.close, b.volume])).toEqual([
      [series[28]?.date, series[28]?.close, series[28]?.volume],
      [series[29]?.date, 123.456789, 7],
    ]);
    // Both bounds included, across a weekend (the series has no weekend bars).
    const window = await readDailyBars(deps.db, id, { from: "2016-01-08", to: "2016-01-12" });
    expect(window.map((b) => b.date)).toEqual(["2016-01-08", "2016-01-11", "2016-01-12"]);
    expect((await listingSpans(deps.db, 2_000_000_000, "")).stored).toBeNull();
  });
});
