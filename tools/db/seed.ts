import pg from "pg";
import type { Db } from "../../src/db/client";
import { storeInstrument } from "../../src/db/repositories/catalogue-additions";
import { SEED_SOURCES } from "../../src/domain/catalogue-additions";
import { runAsScript } from "./connect";
import { withHttpDb } from "./http-db";
import type { SeedInstrument } from "./seed-catalogue";
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

/** Instruments stored side by side: the connections a Worker invocation may hold, as the refresh. */
const PARALLEL = 6;

/**
 * Stores the seed catalogue (with the index members it lacks) as the first import: each instrument
 * through the store every addition uses (`storeInstrument`, one transaction each), `added_via`
 * "seed", with the seed's primary listing. As any import, it fills what an instrument lacks and
 * overwrites nothing, adds the listings it lacks, never moves a listing another instrument holds
 * (refused, with its reason) and never brings back a removed instrument. Rerun, it changes nothing.
 */
async function storeSeed(db: Db, at: Date): Promise<{ listings: number; refused: RefusedListing[] }> {
  let listings = 0;
  const refused: RefusedListing[] = [];
  const store = async (inst: SeedInstrument) => {
    const primary = inst.listings.find((l) => l.primary) ?? null;
    const stored = await storeInstrument(db, at, {
      isin: inst.isin,
      name: inst.name,
      quoteType: inst.quoteType,
      sector: inst.sector,
      industry: inst.industry,
      country: inst.country,
      via: "seed",
      keyKind: null,
      importId: null,
      // The seed's listings are its own ("all"); a record kept of a known instrument stays.
      sources: SEED_SOURCES,
      reactivate: false,
      // The provider's symbol of each is checked by its first refresh.
      listings: inst.listings.map((l) => ({
        ticker: l.ticker,
        exchange: l.exchange,
        currency: l.currency,
        delayedSymbol: null,
      })),
      primary: primary && { ticker: primary.ticker, exchange: primary.exchange, currency: primary.currency },
    });
    listings += inst.listings.length - stored.conflicts.length;
    for (const c of stored.conflicts)
      refused.push({
        ticker: c.ticker,
        exchange: c.exchange,
        currency: c.currency,
        isin: inst.isin,
        ownerIsin: c.ownerIsin,
        reason: `${c.ticker} on ${c.exchange} in ${c.currency} is a listing of ${c.ownerIsin}; the seed names it for ${inst.isin} and never moves a listing`,
      });
  };
  for (let i = 0; i < SEED_CATALOGUE.length; i += PARALLEL)
    await Promise.all(SEED_CATALOGUE.slice(i, i + PARALLEL).map(store));
  // In the seed's order, whichever store finished first.
  const order = new Map(SEED_CATALOGUE.map((inst, n) => [inst.isin, n]));
  refused.sort((a, b) => (order.get(a.isin) ?? 0) - (order.get(b.isin) ?? 0) || a.ticker.localeCompare(b.ticker));
  return { listings, refused };
}

/**
 * The seed import (`storeSeed`), then the index compositions: members whose instrument is in the
 * catalogue, each composition replaced. Answers the counts.
 */
export async function seedCatalogue(
  url: string,
  at: Date = new Date(),
): Promise<{ assets: number; listings: number; indices: number; refused: RefusedListing[] }> {
  const { listings, refused } = await withHttpDb(url, (db) => storeSeed(db, at));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN");
    const ids = await client.query<{ id: number; isin: string }>("SELECT id, isin FROM assets WHERE isin = ANY($1)", [
      SEED_CATALOGUE.map((i) => i.isin),
    ]);
    const assetIds = new Map(ids.rows.map((r) => [r.isin, r.id]));
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
      // A member whose instrument is not in the catalogue (every line of it held by another) is left out.
      const members = index.members.flatMap((m) => {
        const assetId = assetIds.get(m.isin);
        return assetId === undefined ? [] : [{ assetId, ticker: m.ticker, weight: m.weight }];
      });
      // The composition is replaced: a member that left the index leaves the table.
      await client.query("DELETE FROM index_members WHERE index_code = $1 AND NOT (asset_id = ANY($2::int[]))", [
        index.code,
        members.map((m) => m.assetId),
      ]);
      for (const m of members) {
        await client.query(
          `INSERT INTO index_members (index_code, asset_id, listing_id, weight)
           VALUES ($1, $2, (SELECT id FROM listings WHERE asset_id = $2 AND ticker = $3 LIMIT 1), $4)
           ON CONFLICT (index_code, asset_id) DO UPDATE SET listing_id = EXCLUDED.listing_id, weight = EXCLUDED.weight`,
          [index.code, m.assetId, m.ticker, m.weight === null ? null : String(m.weight)],
        );
      }
    }
    await client.query("COMMIT");
    return { assets: assetIds.size, listings, indices: SEED_INDICES.length, refused };
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
