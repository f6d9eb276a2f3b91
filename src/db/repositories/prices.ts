import { and, asc, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { Bar } from "../../domain/bars";
import type { Db } from "../client";
import { pricesDaily } from "../schema";

/** Rows per INSERT: 8 parameters a row stays far below Postgres's 65,535-parameter limit. */
const BATCH = 1000;

/**
 * Upserts daily bars of a listing in batches (`INSERT ... ON CONFLICT DO UPDATE`), so a rerun over
 * the same range changes no row and loses none. Rows whose values are unchanged are not rewritten.
 * Answers how many rows were inserted or changed.
 */
export async function upsertDailyBars(db: Db, listingId: number, bars: readonly Bar[], dataSource: string): Promise<number> {
  let written = 0;
  for (let i = 0; i < bars.length; i += BATCH) {
    const rows = bars.slice(i, i + BATCH).map((b) => ({
      listingId,
      date: b.date,
      open: String(b.open),
      high: String(b.high),
      low: String(b.low),
      close: String(b.close),
      adjClose: String(b.adjClose),
      volume: b.volume,
      dataSource,
    }));
    const res = await db
      .insert(pricesDaily)
      .values(rows)
      .onConflictDoUpdate({
        target: [pricesDaily.listingId, pricesDaily.date],
        set: {
          open: sql`excluded.open`,
          high: sql`excluded.high`,
          low: sql`excluded.low`,
          close: sql`excluded.close`,
          adjClose: sql`excluded.adj_close`,
          volume: sql`excluded.volume`,
          dataSource: sql`excluded.data_source`,
          updatedAt: sql`now()`,
        },
        // Only a real change rewrites a row: reingesting the same range is a no-op.
        setWhere: sql`(${pricesDaily.open}, ${pricesDaily.high}, ${pricesDaily.low}, ${pricesDaily.close}, ${pricesDaily.adjClose}, ${pricesDaily.volume})
          IS DISTINCT FROM (excluded.open, excluded.high, excluded.low, excluded.close, excluded.adj_close, excluded.volume)`,
      })
      .returning({ date: pricesDaily.date });
    written += res.length;
  }
  return written;
}

/** Stored daily bars of a listing, ascending, within an optional inclusive window; `lastBars` keeps the newest N. */
export async function readDailyBars(db: Db, listingId: number, window: { from?: string | null; to?: string | null; lastBars?: number | null } = {}): Promise<Bar[]> {
  const conditions = [eq(pricesDaily.listingId, listingId)];
  if (window.from) conditions.push(gte(pricesDaily.date, window.from));
  if (window.to) conditions.push(lte(pricesDaily.date, window.to));
  const base = db
    .select({
      date: pricesDaily.date,
      open: pricesDaily.open,
      high: pricesDaily.high,
      low: pricesDaily.low,
      close: pricesDaily.close,
      adjClose: pricesDaily.adjClose,
      volume: pricesDaily.volume,
    })
    .from(pricesDaily)
    .where(and(...conditions));
  const rows = window.lastBars ? (await base.orderBy(desc(pricesDaily.date)).limit(window.lastBars)).reverse() : await base.orderBy(asc(pricesDaily.date));
  return rows.map((r) => {
    const close = Number(r.close);
    return {
      date: r.date,
      open: r.open === null ? close : Number(r.open),
      high: r.high === null ? close : Number(r.high),
      low: r.low === null ? close : Number(r.low),
      close,
      adjClose: Number(r.adjClose),
      volume: r.volume,
    };
  });
}

/** First and last stored date of a listing (null when nothing is stored): what an ingestion still has to fetch. */
export async function storedRange(db: Db, listingId: number): Promise<{ first: string; last: string; count: number } | null> {
  const [row] = await db
    .select({ first: sql<string>`min(${pricesDaily.date})`, last: sql<string>`max(${pricesDaily.date})`, count: sql<number>`count(*)::int` })
    .from(pricesDaily)
    .where(eq(pricesDaily.listingId, listingId));
  return row && row.count > 0 ? { first: row.first, last: row.last, count: row.count } : null;
}
