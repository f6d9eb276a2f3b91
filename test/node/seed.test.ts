import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedCatalogue } from "../../tools/db/seed";
import { FULL_CATALOGUE } from "../../tools/db/seed-indices";

/**
 * The seed import against the test stack's database: rerun, it changes nothing; it never moves a
 * listing that another instrument holds (issue 43: never steal a listing).
 */
const databaseUrl = inject("databaseUrl");
/** A well-formed ISIN no seed instrument has: the instrument that came to hold the listing. */
const OTHER = "US0000000002";
const client = new pg.Client({ connectionString: databaseUrl });

async function ownerOf(ticker: string, exchange: string, currency: string): Promise<string | undefined> {
  const r = await client.query<{ isin: string }>(
    `SELECT a.isin FROM listings l JOIN assets a ON a.id = l.asset_id
     WHERE l.ticker = $1 AND l.exchange = $2 AND l.currency = $3`,
    [ticker, exchange, currency],
  );
  return r.rows[0]?.isin;
}

/** The seed's instruments, listings and index members as stored (what a rerun must leave as it is). */
async function seedRows() {
  const isins = FULL_CATALOGUE.map((i) => i.isin);
  const rows = await client.query(
    `SELECT a.id, a.isin, a.name, a.quote_type, a.sector, a.industry, a.country, a.added_via, a.field_sources,
            a.removed_at, l.id AS listing_id, l.ticker, l.exchange, l.currency, l.name AS listing_name, l.source,
            l.is_primary, l.is_active, l.preferred
     FROM assets a JOIN listings l ON l.asset_id = a.id WHERE a.isin = ANY($1) ORDER BY a.isin, l.id`,
    [isins],
  );
  const members = await client.query(
    "SELECT index_code, asset_id, listing_id, weight FROM index_members ORDER BY index_code, asset_id",
  );
  return { instruments: rows.rows, members: members.rows };
}

describe("the seed import", () => {
  let seedOwner: string | undefined;
  beforeAll(async () => {
    await client.connect();
    seedOwner = await ownerOf("FAST", "NASDAQ", "USD");
  });
  afterAll(async () => {
    // FAST back where the seed put it, and the other instrument gone.
    await client.query(
      `UPDATE listings SET asset_id = (SELECT id FROM assets WHERE isin = $1) WHERE ticker = 'FAST' AND exchange = 'NASDAQ'`,
      [seedOwner],
    );
    await client.query("DELETE FROM assets WHERE isin = $1", [OTHER]);
    await client.end();
    // The index compositions point at the listing again.
    await seedCatalogue(databaseUrl);
    // A whole seed (about 4 s alone): longer than the default hook's 10 s when the lanes share the cores.
  }, 60_000);

  it("reruns without a change, and refuses to move a listing another instrument holds", async () => {
    expect(seedOwner).toBe("US3119001044");
    const before = await seedRows();
    const again = await seedCatalogue(databaseUrl);
    expect(again.refused).toEqual([]);
    expect(again.listings).toBe(286);
    expect(await seedRows()).toEqual(before);
    // The listing came to another instrument (an import's, say): the seed names it for Fastenal.
    const other = await client.query<{ id: number }>(
      `INSERT INTO assets (isin, name, quote_type) VALUES ($1, 'Another instrument', 'EQUITY') RETURNING id`,
      [OTHER],
    );
    await client.query(`UPDATE listings SET asset_id = $1 WHERE ticker = 'FAST' AND exchange = 'NASDAQ'`, [
      other.rows[0]?.id,
    ]);
    const seeded = await seedCatalogue(databaseUrl);
    expect(seeded.refused).toEqual([
      {
        ticker: "FAST",
        exchange: "NASDAQ",
        currency: "USD",
        isin: "US3119001044",
        ownerIsin: OTHER,
        reason: `FAST on NASDAQ in USD is a listing of ${OTHER}; the seed names it for US3119001044 and never moves a listing`,
      },
    ]);
    expect(seeded.listings).toBe(285);
    expect(await ownerOf("FAST", "NASDAQ", "USD")).toBe(OTHER);
  });

  it("stores the seed as an import: recorded as the seed's, never overwriting, never bringing back a removed instrument", async () => {
    const vias = await client.query<{ added_via: string; n: number }>(
      "SELECT added_via, count(*)::int AS n FROM assets WHERE isin = ANY($1) GROUP BY added_via",
      [["US0378331005", "US5949181045", "FR0000121014"]],
    );
    expect(vias.rows).toEqual([{ added_via: "seed", n: 3 }]);
    const apple = await client.query(
      `SELECT a.field_sources, l.source, l.delayed_symbol FROM assets a JOIN listings l ON l.asset_id = a.id
       WHERE a.isin = 'US0378331005'`,
    );
    expect(apple.rows).toEqual([
      {
        field_sources: { all: "the seed catalogue" },
        source: "seed",
        // Checked by the listing's first refresh (the test stack's may have done so already).
        delayed_symbol: apple.rows[0]?.delayed_symbol === null ? null : "AAPL",
      },
    ]);

    // Removed (as DELETE /assets does) and renamed by an operator, LVMH stays as it is.
    const LVMH = "FR0000121014";
    const before = await client.query<{ name: string }>("SELECT name FROM assets WHERE isin = $1", [LVMH]);
    await client.query("UPDATE assets SET removed_at = now(), name = 'LVMH, renamed' WHERE isin = $1", [LVMH]);
    await client.query(
      "UPDATE listings SET is_active = false WHERE asset_id = (SELECT id FROM assets WHERE isin = $1)",
      [LVMH],
    );
    try {
      await seedCatalogue(databaseUrl);
      const after = await client.query<{ name: string; removed: boolean; active: boolean[] }>(
        `SELECT a.name, a.removed_at IS NOT NULL AS removed, array_agg(l.is_active) AS active
         FROM assets a JOIN listings l ON l.asset_id = a.id WHERE a.isin = $1 GROUP BY a.id`,
        [LVMH],
      );
      expect(after.rows).toEqual([{ name: "LVMH, renamed", removed: true, active: [false] }]);
    } finally {
      await client.query("UPDATE assets SET removed_at = NULL, name = $2 WHERE isin = $1", [
        LVMH,
        before.rows[0]?.name,
      ]);
      await client.query(
        "UPDATE listings SET is_active = true WHERE asset_id = (SELECT id FROM assets WHERE isin = $1)",
        [LVMH],
      );
    }
  });
});
