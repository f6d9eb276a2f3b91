import { deleteSnapshots, upsertSnapshots } from "../../db/repositories/indicator-snapshots";
import { readLastBarsOfListings } from "../../db/repositories/prices";
import type { Deps } from "../../deps";
import { snapshotsOf } from "../../domain/indicators/snapshots";

/**
 * Recomputes and stores the indicator snapshots of listings from their newest stored daily bars
 * (one read, one write, whatever the number of listings); a listing without bars loses its
 * snapshots. Answers how many snapshots were written.
 */
export async function refreshSnapshots(ctx: Deps, listingIds: readonly number[]): Promise<number> {
  if (listingIds.length === 0) return 0;
  const db = ctx.db.db;
  const windowBars = ctx.config.TECHNICAL_DEFAULT_LIMIT;
  const bars = await readLastBarsOfListings(db, listingIds, windowBars);
  const rows = listingIds.flatMap((listingId) =>
    snapshotsOf(bars.get(listingId) ?? [], windowBars).map((s) => ({ ...s, listingId })),
  );
  const bare = listingIds.filter((id) => !bars.get(id)?.length);
  await Promise.all([deleteSnapshots(db, bare), rows.length ? upsertSnapshots(db, rows, ctx.clock.now()) : null]);
  return rows.length;
}
