import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { ingestLeases } from "../schema";

/** The lease of a listing as a waiter sees it. */
export interface LeaseState {
  holder: string;
  finished: boolean;
  expired: boolean;
  outcome: unknown;
}

/**
 * Takes the listing's lease for `holder` unless another holder's unfinished, unexpired lease stands:
 * one atomic upsert, so of any number of concurrent callers exactly one wins. Expiry uses the
 * database's clock, the one clock every isolate shares.
 */
export async function tryAcquireLease(
  db: Db,
  scope: string,
  listingId: number,
  holder: string,
  ttlMs: number,
): Promise<boolean> {
  const result = await db.execute<{ holder: string }>(sql`
    INSERT INTO ${ingestLeases} (scope, listing_id, holder, expires_at)
    VALUES (${scope}, ${listingId}, ${holder}, now() + make_interval(secs => ${ttlMs / 1000}))
    ON CONFLICT (scope, listing_id) DO UPDATE
      SET holder = excluded.holder, expires_at = excluded.expires_at, finished_at = NULL, outcome = NULL
      WHERE ${ingestLeases.finishedAt} IS NOT NULL OR ${ingestLeases.expiresAt} < now()
    RETURNING holder`);
  return result.rows.length === 1;
}

/** Ends the holder's lease, leaving its outcome for the requests that waited on it. */
export async function releaseLease(
  db: Db,
  scope: string,
  listingId: number,
  holder: string,
  outcome: unknown,
): Promise<void> {
  await db.execute(sql`
    UPDATE ${ingestLeases} SET finished_at = now(), outcome = ${JSON.stringify(outcome)}::jsonb
    WHERE scope = ${scope} AND listing_id = ${listingId} AND holder = ${holder}`);
}

export async function readLease(db: Db, scope: string, listingId: number): Promise<LeaseState | null> {
  const result = await db.execute<{ holder: string; finished: boolean; expired: boolean; outcome: unknown }>(sql`
    SELECT holder, finished_at IS NOT NULL AS finished, expires_at < now() AS expired, outcome
    FROM ${ingestLeases} WHERE scope = ${scope} AND listing_id = ${listingId}`);
  const row = result.rows[0];
  return row ? { holder: row.holder, finished: row.finished, expired: row.expired, outcome: row.outcome } : null;
}
