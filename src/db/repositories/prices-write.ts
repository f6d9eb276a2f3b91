import { sql } from "drizzle-orm";
import type { Bar } from "../../domain/bars";
import { arrayLiteral, inOneTransaction } from "../batch";
import type { Db } from "../client";
import { pricesDaily } from "../schema";

/** Rows per INSERT: a ten-year history is one statement; a longer one a few, in the same transaction. */
const BATCH = 10_000;

/**
 * Upserts daily bars of a listing (`INSERT ... ON CONFLICT DO UPDATE`, all statements in one
 * transaction and one round trip), so a rerun over the same range changes no row and loses none.
 * Rows whose values are unchanged are not rewritten. Answers how many rows were inserted or changed.
 * The bars go as one array a column (`unnest`): seven parameters a statement rather than nine a
 * row, which Postgres parses and plans many times faster than a VALUES list of thousands of rows.
 */
export async function upsertDailyBars(
  db: Db,
  listingId: number,
  bars: readonly Bar[],
  dataSource: string,
): Promise<number> {
  const statements = [];
  for (let i = 0; i < bars.length; i += BATCH) {
    const chunk = bars.slice(i, i + BATCH);
    const column = (pick: (b: Bar) => number | string) => arrayLiteral(chunk.map(pick));
    statements.push(
      db.execute<{ date: string }>(sql`
        INSERT INTO ${pricesDaily} (listing_id, date, open, high, low, close, adj_close, volume, data_source)
        SELECT ${listingId}, b.date, b.open, b.high, b.low, b.close, b.adj_close, b.volume, ${dataSource}
        FROM unnest(${column((b) => b.date)}::date[], ${column((b) => b.open)}::numeric[],
                    ${column((b) => b.high)}::numeric[], ${column((b) => b.low)}::numeric[],
                    ${column((b) => b.close)}::numeric[], ${column((b) => b.adjClose)}::numeric[],
                    ${column((b) => b.volume)}::bigint[]) AS b(date, open, high, low, close, adj_close, volume)
        ON CONFLICT (listing_id, date) DO UPDATE SET
          open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
          adj_close = excluded.adj_close, volume = excluded.volume, data_source = excluded.data_source,
          updated_at = now()
        -- Only a real change rewrites a row: reingesting the same range is a no-op. A bar that
        -- another provider had stored is relabelled even when its values agree.
        WHERE (${pricesDaily}.open, ${pricesDaily}.high, ${pricesDaily}.low, ${pricesDaily}.close,
               ${pricesDaily}.adj_close, ${pricesDaily}.volume, ${pricesDaily}.data_source)
          IS DISTINCT FROM (excluded.open, excluded.high, excluded.low, excluded.close, excluded.adj_close,
                            excluded.volume, excluded.data_source)
        RETURNING date`),
    );
  }
  const written = (await inOneTransaction(db, statements)) as { rows: { date: string }[] }[];
  return written.reduce((n, r) => n + r.rows.length, 0);
}
