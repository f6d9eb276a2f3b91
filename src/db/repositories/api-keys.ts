import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { uniqueViolation } from "../errors";
import { apiKeys } from "../schema";

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;

/**
 * Inserts a key unless one in force has its name: the new row, or null (so that identical creations
 * at once mint one key, whoever inserts first).
 */
export async function insertApiKey(db: Db, key: NewApiKey): Promise<ApiKeyRow | null> {
  const [row] = await db.insert(apiKeys).values(key).onConflictDoNothing().returning();
  return row ?? null;
}

/** The key in force with this name, if any. */
export async function findActiveKeyByName(db: Db, name: string): Promise<ApiKeyRow | null> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.name, name), isNull(apiKeys.revokedAt)));
  return row ?? null;
}

/** Every key, newest first; revoked ones too when asked. */
export function listApiKeys(db: Db, opts: { includeRevoked: boolean }): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(opts.includeRevoked ? undefined : isNull(apiKeys.revokedAt))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function findApiKey(db: Db, id: string): Promise<ApiKeyRow | null> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row ?? null;
}

/**
 * Changes what may change of a key that is not revoked: the row, null when there is none, or
 * "name_taken" when another key in force has the new name.
 */
export async function updateApiKey(
  db: Db,
  id: string,
  change: Partial<Pick<ApiKeyRow, "name" | "expiresAt" | "rateLimit">>,
): Promise<ApiKeyRow | null | "name_taken"> {
  try {
    const [row] = await db
      .update(apiKeys)
      .set(change)
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning();
    return row ?? null;
  } catch (err) {
    if (uniqueViolation(err)) return "name_taken";
    throw err;
  }
}

/** Revokes a key (its row stays, for the usage rows that name it); a second revocation keeps the first's time. */
export async function revokeApiKey(db: Db, id: string, at: Date): Promise<ApiKeyRow | null> {
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning();
  return revoked ?? (await findApiKey(db, id));
}

/**
 * The key stored under `hash`, its use recorded at `at` in the same statement (one round trip):
 * an isolate reads a key at most once a minute, so that is when its last use is written.
 */
export async function touchApiKey(db: Db, hash: string, at: Date): Promise<ApiKeyRow | null> {
  const [row] = await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.hash, hash)).returning();
  return row ?? null;
}
