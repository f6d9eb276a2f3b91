import pg from "pg";
import { runAsScript } from "./connect";
import { indexKey, FULL_CATALOGUE as SEED_CATALOGUE, SEED_INDICES } from "./seed-indices";

/** A seed listing left as it is: the same ticker, venue and currency belong to another instrument. */
export interface RefusedListing {
  ticker: string;
  exchange: string | null;
  currency: string;
  /** The instrument the seed names, and the one the listing belongs to. */
  isin: string;
  ownerIsin: string;
  reason: string;
}

/**
 * Upserts the seed catalogue (with the index members it lacks) and the index compositions:
 * rerunning it changes nothing and adds nothing. A listing is never moved to another instrument:
 * one the catalogue already holds under another ISIN is refused, with its reason. Answers the counts.
 */
export async function seedCatalogue(
  url: string,
): Promise<{ assets: number; listings: number; indices: number; refused: RefusedListing[] }> {
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
    const refused: RefusedListing[] = [];
    for (const inst of SEED_CATALOGUE) {
      for (const l of inst.listings) {
        // Updated only while it is this instrument's: a listing is never moved to another one.
        const res = await client.query(
          `INSERT INTO listings (asset_id, ticker, exchange, currency, name, source, is_primary, is_active)
           VALUES ($1, $2, $3, $4, $5, 'seed', $6, true)
           ON CONFLICT (ticker, (coalesce(exchange, '')), currency) DO UPDATE SET
             name = EXCLUDED.name, is_primary = EXCLUDED.is_primary, updated_at = now()
             WHERE listings.asset_id = EXCLUDED.asset_id
           RETURNING id`,
          [assetIds.get(inst.isin), l.ticker, l.exchange, l.currency, inst.name, l.primary],
        );
        if (res.rows.length > 0) {
          listings++;
          continue;
        }
        const owner = await client.query<{ isin: string }>(
          `SELECT a.isin FROM listings l JOIN assets a ON a.id = l.asset_id
           WHERE l.ticker = $1 AND coalesce(l.exchange, '') = coalesce($2, '') AND l.currency = $3`,
          [l.ticker, l.exchange, l.currency],
        );
        const ownerIsin = owner.rows[0]?.isin ?? "?";
        refused.push({
          ticker: l.ticker,
          exchange: l.exchange,
          currency: l.currency,
          isin: inst.isin,
          ownerIsin,
          reason: `${l.ticker} on ${l.exchange ?? "no venue"} in ${l.currency} is a listing of ${ownerIsin}; the seed names it for ${inst.isin} and never moves a listing`,
        });
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
    return { assets: SEED_CATALOGUE.length, listings, indices: SEED_INDICES.length, refused };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

runAsScript(import.meta.url, "seed", async (url) => {
  const n = await seedCatalogue(url);
  for (const r of n.refused) console.warn(`seed: refused ${r.reason}`);
  return `seed catalogue: ${n.assets} instruments, ${n.listings} listings, ${n.indices} index compositions${n.refused.length ? `, ${n.refused.length} listing(s) refused` : ""}`;
});
