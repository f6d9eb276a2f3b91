import { deleteSnapshots, upsertSnapshots } from "../../db/repositories/indicator-snapshots";
import { readLastBarsOfListings } from "../../db/repositories/prices-latest";
import { HISTORY_BARS } from "../../domain/indicators/history";
import { screenRowOf } from "../../domain/indicators/screen-row";
import { snapshotsOf } from "../../domain/indicators/snapshots";
import type { Context } from "../../platform/context";

/**
 * Listings whose snapshots are computed at once: their reads go six at a time (the connections an
 * invocation holds), ten listings' history each (prices' BARS_PER_READ), so a cleanup that touches
 * every listing holds sixty histories in memory at most.
 */
const LISTINGS_AT_ONCE = 60;

/**
 * Recomputes and stores the indicator snapshots of listings and their screen rows from their
 * stored daily history (the newest HISTORY_BARS bars, as every indicator route computes; a read
 * and a write per LISTINGS_AT_ONCE listings); a listing without bars loses both. Answers how many
 * snapshots were written.
 */
export async function refreshSnapshots(ctx: Context, listingIds: readonly number[]): Promise<number> {
  let written = 0;
  for (let i = 0; i < listingIds.length; i += LISTINGS_AT_ONCE)
    written += await refreshSome(ctx, listingIds.slice(i, i + LISTINGS_AT_ONCE));
  return written;
}

async function refreshSome(ctx: Context, listingIds: readonly number[]): Promise<number> {
  if (listingIds.length === 0) return 0;
  const db = ctx.db;
  const windowBars = HISTORY_BARS;
  const bars = await readLastBarsOfListings(db, listingIds, windowBars);
  const computed = listingIds.map((listingId) => {
    const own = bars.get(listingId) ?? [];
    const snapshots = snapshotsOf(own, windowBars);
    return { listingId, snapshots, row: screenRowOf(snapshots, own.at(-1)) };
  });
  const rows = computed.flatMap((c) => c.snapshots.map((s) => ({ ...s, listingId: c.listingId })));
  const screen = computed.flatMap((c) => (c.row ? [{ ...c.row, listingId: c.listingId }] : []));
  const bare = listingIds.filter((id) => !bars.get(id)?.length);
  await Promise.all([
    deleteSnapshots(db, bare),
    rows.length ? upsertSnapshots(db, rows, screen, ctx.clock.now()) : null,
  ]);
  return rows.length;
}
