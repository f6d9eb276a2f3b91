import { sql } from "drizzle-orm";
import { type AdditionVia, type FieldSources, listingSourceOf } from "../../domain/catalogue-additions";
import { inOneTransaction } from "../batch";
import type { Db } from "../client";
import { assets, catalogueAdditionBudget, catalogueMisses, listings, realtimeSubscriptions } from "../schema";

/** What was remembered of an earlier "no provider knows it", while it is believed. */
export async function readMiss(
  db: Db,
  key: string,
  since: Date,
): Promise<{ status: number; reason: string; checkedAt: Date } | null> {
  const rows = await db.execute<{ status: number; reason: string; checked_at: string }>(sql`
    SELECT status, reason, checked_at FROM ${catalogueMisses}
    WHERE query = ${key} AND checked_at >= ${since.toISOString()}`);
  const row = rows.rows[0];
  return row ? { status: row.status, reason: row.reason, checkedAt: new Date(row.checked_at) } : null;
}

/** Remembers a miss (the latest answer wins: retries write the same row). */
export async function saveMiss(db: Db, key: string, status: number, reason: string, at: Date): Promise<void> {
  await db.execute(sql`
    INSERT INTO ${catalogueMisses} (query, status, reason, checked_at)
    VALUES (${key}, ${status}, ${reason}, ${at.toISOString()})
    ON CONFLICT (query) DO UPDATE SET status = EXCLUDED.status, reason = EXCLUDED.reason, checked_at = EXCLUDED.checked_at`);
}

/**
 * Counts one attempt of a key in the minute of `at` and answers the minute's count so far (one
 * atomic upsert, so two isolates never both take the last one); rows an hour old are dropped on the way.
 */
export async function spendAddition(db: Db, fingerprint: string, at: Date): Promise<number> {
  const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString();
  const rows = await db.execute<{ spent: number }>(sql`
    WITH old AS (
      DELETE FROM ${catalogueAdditionBudget} WHERE minute < ${minute}::timestamptz - interval '1 hour'
    )
    INSERT INTO ${catalogueAdditionBudget} (key_fingerprint, minute, spent) VALUES (${fingerprint}, ${minute}, 1)
    ON CONFLICT (key_fingerprint, minute) DO UPDATE SET spent = ${catalogueAdditionBudget.spent} + 1
    RETURNING spent`);
  return Number(rows.rows[0]?.spent ?? 1);
}

/** Instruments reads have added since `since` (the discoveries' daily budget). */
export async function discoveredSince(db: Db, since: Date): Promise<number> {
  const rows = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM ${assets} WHERE added_via = 'discovery' AND created_at >= ${since.toISOString()}`);
  return rows.rows[0]?.n ?? 0;
}

/** Misses remembered longer than they are believed: none is read again. */
export async function pruneMisses(db: Db, before: Date): Promise<number> {
  const rows = await db.execute(sql`DELETE FROM ${catalogueMisses} WHERE checked_at < ${before.toISOString()}`);
  return rows.rowCount ?? 0;
}

/** Which of these lines another instrument than `isin` holds (ticker, venue and currency taken). */
export async function linesHeldElsewhere(
  db: Db,
  isin: string,
  lines: readonly { ticker: string; exchange: string; currency: string }[],
): Promise<{ ticker: string; exchange: string; currency: string; ownerIsin: string }[]> {
  if (lines.length === 0) return [];
  const rows = JSON.stringify(lines.map((l) => ({ ticker: l.ticker, exchange: l.exchange, currency: l.currency })));
  const found = await db.execute<{ ticker: string; exchange: string; currency: string; isin: string }>(sql`
    SELECT l.ticker, l.exchange, l.currency, a.isin
    FROM ${listings} l JOIN ${assets} a ON a.id = l.asset_id
    JOIN jsonb_to_recordset(${rows}::jsonb) AS x(ticker text, exchange text, currency text)
      ON l.ticker = x.ticker AND coalesce(l.exchange, '') = x.exchange AND l.currency = x.currency
    WHERE a.isin <> ${isin}`);
  return found.rows.map((r) => ({ ticker: r.ticker, exchange: r.exchange, currency: r.currency, ownerIsin: r.isin }));
}

/**
 * A listing to store: with the delayed-provider symbol verified against its currency, or (the seed's)
 * none yet, checked by the listing's first refresh.
 */
export interface ListingToStore {
  ticker: string;
  exchange: string;
  currency: string;
  delayedSymbol: string | null;
}

export interface InstrumentToStore {
  isin: string;
  name: string;
  quoteType: string;
  sector: string | null;
  industry: string | null;
  country: string | null;
  via: AdditionVia;
  keyKind: string | null;
  /** The bulk import adding it, if one is. */
  importId: number | null;
  sources: FieldSources;
  /** An explicit addition brings a removed instrument back; a discovery or the seed never does. */
  reactivate: boolean;
  listings: readonly ListingToStore[];
  /** The primary listing when the instrument has none yet (one that has one keeps it). */
  primary: { ticker: string; exchange: string; currency: string } | null;
}

export interface StoredInstrument {
  assetId: number;
  created: boolean;
  /** False when every line was taken by another instrument meanwhile: nothing of it was kept. */
  stored: boolean;
  reactivated: boolean;
  /** Listings this call added, by ticker. */
  added: string[];
  /** Listings held by another instrument: never moved. */
  conflicts: { ticker: string; exchange: string; currency: string; ownerIsin: string }[];
}

/**
 * Stores an instrument and its listings in one transaction, idempotently (a removed one comes back
 * with `reactivate`, with the listings named now): the instrument's row is
 * created or kept (its fields are filled where unknown, never overwritten; `sources` joins the
 * record of where they were read, which keeps what it holds and gains the keys it lacks), each listing is
 * inserted unless its ticker, venue and currency are taken; a taken one stays with its instrument
 * and comes back as a conflict. Two additions of one ISIN at once write the same rows.
 */
export async function storeInstrument(db: Db, at: Date, i: InstrumentToStore): Promise<StoredInstrument> {
  const now = at.toISOString();
  const rows = JSON.stringify(
    i.listings.map((l) => ({ ticker: l.ticker, exchange: l.exchange, currency: l.currency, symbol: l.delayedSymbol })),
  );
  const assetOf = sql`(SELECT id FROM ${assets} WHERE isin = ${i.isin})`;
  const [asset, inserted, , reactivated, owners, emptied] = await inOneTransaction(db, [
    db.execute(sql`
      INSERT INTO ${assets} (isin, name, quote_type, sector, industry, country, added_via, added_by_key, added_by_import,
                             field_sources, created_at, updated_at)
      VALUES (${i.isin}, ${i.name}, ${i.quoteType}, ${i.sector}, ${i.industry}, ${i.country}, ${i.via}, ${i.keyKind}, ${i.importId},
              ${JSON.stringify(i.sources)}::jsonb, ${now}, ${now})
      ON CONFLICT (isin) DO UPDATE SET
        sector = coalesce(${assets.sector}, EXCLUDED.sector),
        industry = coalesce(${assets.industry}, EXCLUDED.industry),
        -- What was recorded stays; keys it lacks (a new listing's) are added.
        field_sources = EXCLUDED.field_sources || coalesce(${assets.fieldSources}, '{}'::jsonb),
        updated_at = EXCLUDED.updated_at
      RETURNING id, (xmax = 0) AS created, removed_at`),
    db.execute(sql`
      INSERT INTO ${listings} (asset_id, ticker, exchange, currency, name, source, is_primary, is_active,
                               delayed_symbol, delayed_symbol_checked_at, created_at, updated_at)
      SELECT ${assetOf}, x.ticker, x.exchange, x.currency, ${i.name}, ${listingSourceOf(i.via)}, false,
             (SELECT removed_at IS NULL FROM ${assets} WHERE isin = ${i.isin}) OR ${i.reactivate}, x.symbol,
             CASE WHEN x.symbol IS NULL THEN NULL ELSE ${now}::timestamptz END, ${now}, ${now}
      FROM jsonb_to_recordset(${rows}::jsonb) AS x(ticker text, exchange text, currency text, symbol text)
      ON CONFLICT (ticker, (coalesce(exchange, '')), currency) DO UPDATE SET
        delayed_symbol = coalesce(${listings.delayedSymbol}, EXCLUDED.delayed_symbol),
        delayed_symbol_checked_at = coalesce(${listings.delayedSymbolCheckedAt}, EXCLUDED.delayed_symbol_checked_at)
        WHERE ${listings.assetId} = EXCLUDED.asset_id
      RETURNING ticker, (xmax = 0) AS created`),
    db.execute(
      i.primary
        ? sql`
      UPDATE ${listings} SET is_primary = true, updated_at = ${now}
      WHERE asset_id = ${assetOf} AND ticker = ${i.primary.ticker} AND exchange = ${i.primary.exchange}
        AND currency = ${i.primary.currency}
        AND NOT EXISTS (SELECT 1 FROM ${listings} WHERE asset_id = ${assetOf} AND is_primary)`
        : sql`SELECT 1`,
    ),
    db.execute(
      i.reactivate
        ? sql`
      WITH back AS (
        UPDATE ${assets} SET removed_at = NULL, updated_at = ${now} WHERE isin = ${i.isin} AND removed_at IS NOT NULL
        RETURNING id
      ), listed AS (
        -- Only the lines the provider confirmed now come back: one delisted since stays out.
        UPDATE ${listings} l SET is_active = true, updated_at = ${now}
        FROM jsonb_to_recordset(${rows}::jsonb) AS x(ticker text, exchange text, currency text)
        WHERE l.asset_id IN (SELECT id FROM back)
          AND l.ticker = x.ticker AND coalesce(l.exchange, '') = x.exchange AND l.currency = x.currency
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM back`
        : sql`SELECT 0 AS n`,
    ),
    db.execute(sql`
      SELECT l.ticker, l.exchange, l.currency, a.isin
      FROM ${listings} l JOIN ${assets} a ON a.id = l.asset_id
      JOIN jsonb_to_recordset(${rows}::jsonb) AS x(ticker text, exchange text, currency text)
        ON l.ticker = x.ticker AND coalesce(l.exchange, '') = x.exchange AND l.currency = x.currency
      WHERE a.isin <> ${i.isin}`),
    // An instrument is never left without a listing: when another ISIN took every line between
    // the check and this store, the instrument this store created goes again (and the lines come
    // back as conflicts). One created earlier stays whatever it holds: its fundamentals and news
    // would go with it.
    db.execute(sql`
      DELETE FROM ${assets} a WHERE a.isin = ${i.isin} AND a.created_at = ${now}
        AND NOT EXISTS (SELECT 1 FROM ${listings} l WHERE l.asset_id = a.id)
      RETURNING id`),
  ]);
  const assetRow = (asset as { rows: { id: number; created: boolean }[] }).rows[0];
  if (!assetRow) throw new Error(`storing ${i.isin} returned no row`);
  return {
    assetId: assetRow.id,
    created: assetRow.created,
    stored: (emptied as { rows: unknown[] }).rows.length === 0,
    reactivated: ((reactivated as { rows: { n: number }[] }).rows[0]?.n ?? 0) > 0,
    added: (inserted as { rows: { ticker: string; created: boolean }[] }).rows
      .filter((r) => r.created)
      .map((r) => r.ticker),
    conflicts: (owners as { rows: { ticker: string; exchange: string; currency: string; isin: string }[] }).rows.map(
      (r) => ({ ticker: r.ticker, exchange: r.exchange, currency: r.currency, ownerIsin: r.isin }),
    ),
  };
}

/**
 * Takes an instrument out of the catalogue: its listings are deactivated (they leave every route,
 * the refresh, the screener and the streams), its stored subscriptions end, its prices stay.
 * Answers when it was removed (the first removal's time on a repeat) and the tickers whose stored
 * subscriptions ended, or null for an unknown ISIN.
 */
export async function removeInstrument(
  db: Db,
  isin: string,
  at: Date,
): Promise<{ removedAt: Date; streamsEnded: string[] } | null> {
  const now = at.toISOString();
  const [removed, , ended] = await inOneTransaction(db, [
    db.execute(sql`
      UPDATE ${assets} SET removed_at = coalesce(removed_at, ${now}), updated_at = ${now}
      WHERE isin = ${isin} RETURNING removed_at`),
    db.execute(sql`
      UPDATE ${listings} SET is_active = false, updated_at = ${now}
      WHERE asset_id = (SELECT id FROM ${assets} WHERE isin = ${isin}) AND is_active`),
    db.execute(sql`
      UPDATE ${realtimeSubscriptions} SET is_active = false
      WHERE is_active AND listing_id IN
        (SELECT l.id FROM ${listings} l JOIN ${assets} a ON a.id = l.asset_id WHERE a.isin = ${isin})
      RETURNING ticker`),
  ]);
  const row = (removed as { rows: { removed_at: string }[] }).rows[0];
  if (!row) return null;
  return {
    removedAt: new Date(row.removed_at),
    streamsEnded: (ended as { rows: { ticker: string }[] }).rows.map((r) => r.ticker),
  };
}
