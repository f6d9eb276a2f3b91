import { eq, sql } from "drizzle-orm";
import type { ScreenFigures } from "../../domain/screen-figures";
import type { Db } from "../client";
import { screenFigures } from "../schema";

/**
 * The upsert of an instrument's screen figures in one quote currency, for a caller's transaction:
 * figures fetched earlier never replace later ones (by fetch day, then the time the fetch was
 * stored: a slow write beside a newer one loses), so concurrent writers leave the newest.
 */
export function screenFiguresUpsert(
  db: Db,
  f: { assetId: number; currency: string; figures: ScreenFigures; asOf: string; source: string; at: Date },
) {
  return db
    .insert(screenFigures)
    .values({
      assetId: f.assetId,
      currency: f.currency,
      ...f.figures,
      asOf: f.asOf,
      source: f.source,
      updatedAt: f.at,
    })
    .onConflictDoUpdate({
      target: [screenFigures.assetId, screenFigures.currency],
      set: {
        marketCap: sql`excluded.market_cap`,
        peRatio: sql`excluded.pe_ratio`,
        dividendYield: sql`excluded.dividend_yield`,
        asOf: sql`excluded.as_of`,
        source: sql`excluded.source`,
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: sql`(excluded.as_of, excluded.updated_at) >= (${screenFigures.asOf}, ${screenFigures.updatedAt})`,
    });
}

/** An instrument's stored screen figures, as highlights (snake_case), for the validation layer's history. */
export async function storedScreenFigures(db: Db, assetId: number): Promise<Record<string, number | null>[]> {
  const rows = await db.select().from(screenFigures).where(eq(screenFigures.assetId, assetId));
  return rows.map((r) => ({ market_cap: r.marketCap, pe_ratio: r.peRatio, dividend_yield: r.dividendYield }));
}
