import { eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { macroRatesCache } from "../schema";

export type StoredRate = typeof macroRatesCache.$inferSelect;

/** The stored value of a series, or null. */
export async function storedRate(db: Db, seriesId: string): Promise<StoredRate | null> {
  const [row] = await db.select().from(macroRatesCache).where(eq(macroRatesCache.seriesId, seriesId)).limit(1);
  return row ?? null;
}

/**
 * Stores a value read from the macro provider. An older observation never replaces a newer one
 * (two reads racing, one of them slower), and a read of the same observation only moves
 * `fetched_at`: whoever writes, the row holds the newest observation.
 */
export async function saveRate(db: Db, row: StoredRate): Promise<void> {
  await db
    .insert(macroRatesCache)
    .values(row)
    .onConflictDoUpdate({
      target: macroRatesCache.seriesId,
      set: {
        label: sql`excluded.label`,
        value: sql`excluded.value`,
        unit: sql`excluded.unit`,
        observationDate: sql`excluded.observation_date`,
        fetchedAt: sql`greatest(${macroRatesCache.fetchedAt}, excluded.fetched_at)`,
      },
      setWhere: sql`excluded.observation_date >= ${macroRatesCache.observationDate}`,
    });
}
