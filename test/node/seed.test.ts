import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedCatalogue } from "../../tools/db/seed";

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
  });

  it("reruns without a change, and refuses to move a listing another instrument holds", async () => {
    expect(seedOwner).toBe("US3119001044");
    const again = await seedCatalogue(databaseUrl);
    expect(again.refused).toEqual([]);
    expect(again.listings).toBe(286);
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
});
