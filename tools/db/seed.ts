import pg from "pg";
import { runAsScript } from "./connect";
import { indexKey, FULL_CATALOGUE as SEED_CATALOGUE, SEED_INDICES } from "./seed-indices";

/**
 * Upserts the seed catalogue (with the index members it lacks) and the index compositions:
 * rerunning it changes nothing and adds nothing. Answers the counts.
 */
export async function seedCatalogue(url: string): Promise<{ assets: number; listings: number; indices: number }> {
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
    for (const index of SEED_INDICES) {
      await client.query(
        `INSERT INTO market_indices (code, name, symbol, aliases, as_of, source) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, symbol = EXCLUDED.symbol, aliases = EXCLUDED.aliases,
           as_of = EXCLUDED.as_of, source = EXCLUDED.source`,
        [
          index.code,
          index.name,
          index.symbol,
          JSON.stringify([...new Set([index.code, ...index.aliases].map(indexKey))]),
          index.asOf,
          index.source,
        ],
      );
      const members = index.members.map((m) => ({ assetId: assetIds.get(m.isin), ticker: m.ticker, weight: m.weight }));
      // The composition is replaced: a member that left the index leaves the table.
      await client.query("DELETE FROM index_members WHERE index_code = $1 AND NOT (asset_id = ANY($2::int[]))", [
        index.code,
        members.map((m) => m.assetId),
      ]);
      for (const m of members) {
        if (m.assetId === undefined) throw new Error(`index ${index.code}: member not in the catalogue`);
        await client.query(
          `INSERT INTO index_members (index_code, asset_id, listing_id, weight)
           VALUES ($1, $2, (SELECT id FROM listings WHERE asset_id = $2 AND ticker = $3 LIMIT 1), $4)
           ON CONFLICT (index_code, asset_id) DO UPDATE SET listing_id = EXCLUDED.listing_id, weight = EXCLUDED.weight`,
          [index.code, m.assetId, m.ticker, m.weight === null ? null : String(m.weight)],
        );
      }
    }
    await client.query("COMMIT");
    return { assets: SEED_CATALOGUE.length, listings, indices: SEED_INDICES.length };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

runAsScript(import.meta.url, "seed", async (url) => {
  const n = await seedCatalogue(url);
  return `seed catalogue: ${n.assets} instruments, ${n.listings} listings, ${n.indices} index compositions`;
});
