import { sql } from "drizzle-orm";
import type { ScreenFigures } from "../../domain/screen-figures";
import type { Db } from "../client";
import { screenFigures } from "../schema";

/**
 * The upsert of an instrument's screen figures in one quote currency, for a caller's transaction:
 * figures fetched on an earlier day never replace later ones (a slow write beside a newer one),
 * and the same day's second fetch replaces the first whoever wrote it.
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
      setWhere: sql`excluded.as_of >= ${screenFigures.asOf}`,
    });
}
