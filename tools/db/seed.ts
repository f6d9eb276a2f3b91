import pg from "pg";
import { runAsScript } from "./connect";
import { SEED_CATALOGUE } from "./seed-catalogue";

/** Upserts the seed catalogue: rerunning it changes nothing and adds nothing. Answers the counts. */
export async function seedCatalogue(url: string): Promise<{ assets: number; listings: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN");
    const assetIds = new Map<string, number>();
    for (const inst of SEED_CATALOGUE) {
      const res = await client.query<{ id: number }>(
        `INSERT INTO assets (isin, name, quote_type, sector, industry, country)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (isin) DO UPDATE SET name = EXCLUDED.name, quote_type = EXCLUDED.quote_type,
           sector = EXCLUDED.sector, industry = EXCLUDED.industry, country = EXCLUDED.country, updated_at = now()
         RETURNING id`,
        [inst.isin, inst.name, inst.quoteType, inst.sector, inst.industry, inst.country],
      );
      const id = res.rows[0]?.id;
      if (id === undefined) throw new Error(`no id for ${inst.isin}`);
      assetIds.set(inst.isin, id);
    }
    let listings = 0;
    for (const inst of SEED_CATALOGUE) {
      for (const l of inst.listings) {
        await client.query(
          `INSERT INTO listings (asset_id, ticker, exchange, currency, name, source, is_primary, is_active)
           VALUES ($1, $2, $3, $4, $5, 'seed', $6, true)
           ON CONFLICT (ticker, (coalesce(exchange, '')), currency) DO UPDATE SET asset_id = EXCLUDED.asset_id,
             name = EXCLUDED.name, is_primary = EXCLUDED.is_primary, updated_at = now()`,
          [assetIds.get(inst.isin), l.ticker, l.exchange, l.currency, inst.name, l.primary],
        );
        listings++;
      }
    }
    await client.query("COMMIT");
    return { assets: SEED_CATALOGUE.length, listings };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

runAsScript(import.meta.url, "seed", async (url) => {
  const n = await seedCatalogue(url);
  return `seed catalogue: ${n.assets} instruments, ${n.listings} listings`;
});
