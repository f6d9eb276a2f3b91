import { and, gte, inArray, lte, sql } from "drizzle-orm";
import { coverageKey, type StoredSpan } from "../../domain/fx/coverage";
import type { EuroRate } from "../../domain/fx/rates";
import { ECB } from "../../domain/provider-names";
import { arrayLiteral, changedRows, inOneTransaction } from "../batch";
import type { Db } from "../client";
import { fxCoverage, fxRates } from "../schema";

/** Rows per INSERT: a year of every currency (about 7,700) is one statement. */
const BATCH = 10_000;

/**
 * Stores publications (units of a currency per euro), idempotently: a row already stored from the
 * ECB is never replaced by a fallback's, a fallback's is replaced by the ECB's, and an unchanged
 * row is not rewritten. Whoever writes first, the table ends the same. Answers the rows changed.
 */
export async function saveEuroRates(db: Db, given: readonly EuroRate[], at: Date): Promise<number> {
  // Rows in key order: two writers of overlapping windows lock them in the same order (no deadlock),
  // whatever order their answers came in (the 90-day file newest day first, the data API by currency).
  const rows = [...given].sort((a, b) =>
    a.currency === b.currency ? (a.day < b.day ? -1 : a.day > b.day ? 1 : 0) : a.currency < b.currency ? -1 : 1,
  );
  const statements = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const chunk = rows.slice(i, i + BATCH);
    const column = (pick: (r: EuroRate) => string) => arrayLiteral(chunk.map(pick));
    statements.push(
      db.execute(sql`
        INSERT INTO ${fxRates} (currency, day, rate, source, fetched_at)
        SELECT r.currency, r.day, r.rate, r.source, ${at.toISOString()}::timestamptz
        FROM unnest(${column((r) => r.currency)}::text[], ${column((r) => r.day)}::date[],
                    ${column((r) => r.rate)}::numeric[], ${column((r) => r.source)}::text[])
             AS r(currency, day, rate, source)
        ON CONFLICT (currency, day) DO UPDATE SET
          rate = excluded.rate, source = excluded.source, fetched_at = excluded.fetched_at
        WHERE (${fxRates.source} <> ${ECB} OR excluded.source = ${ECB})
          AND (${fxRates.rate} IS DISTINCT FROM excluded.rate OR ${fxRates.source} <> excluded.source)`),
    );
  }
  const results = await inOneTransaction(db, statements as never);
  return results.reduce<number>((n, r) => n + changedRows(r), 0);
}

/** Publications of the currencies between two days (both included), oldest first, each rate without trailing zeros. */
export async function euroRatesBetween(
  db: Db,
  currencies: readonly string[],
  from: string,
  to: string,
): Promise<EuroRate[]> {
  if (!currencies.length) return [];
  const rows = await db
    .select({ day: fxRates.day, currency: fxRates.currency, rate: fxRates.rate, source: fxRates.source })
    .from(fxRates)
    .where(and(inArray(fxRates.currency, [...currencies]), gte(fxRates.day, from), lte(fxRates.day, to)))
    .orderBy(fxRates.day);
  // One spelling whoever stored it: the daily file keeps trailing zeros ("0.85620"), the 90-day file drops them.
  return rows.map((r) => ({ ...r, rate: r.rate.includes(".") ? r.rate.replace(/\.?0+$/, "") : r.rate }));
}

/** The newest day with a stored publication of any currency, or null. */
export async function latestRateDay(db: Db): Promise<string | null> {
  const [row] = await db.select({ day: sql<string | null>`max(${fxRates.day})::text` }).from(fxRates);
  return row?.day ?? null;
}

/** What each currency's years are stored over, by coverageKey (a year absent: none of it). */
export async function coverageOf(
  db: Db,
  currencies: readonly string[],
  years: readonly number[],
): Promise<Map<string, StoredSpan>> {
  if (!currencies.length || !years.length) return new Map();
  const rows = await db
    .select({
      currency: fxCoverage.currency,
      year: fxCoverage.year,
      since: fxCoverage.since,
      through: fxCoverage.through,
    })
    .from(fxCoverage)
    .where(and(inArray(fxCoverage.currency, [...currencies]), inArray(fxCoverage.year, [...years])));
  return new Map(rows.map((r) => [coverageKey(r.currency, r.year), { since: r.since, through: r.through }]));
}

/**
 * A window stored: its publications, then each currency's span of the year widened to it (a
 * window always touches the span it was computed from, so the span stays one; a slower writer
 * never narrows it). A failure between the two leaves the window to fetch again, which rewrites
 * nothing.
 */
export async function saveWindow(
  db: Db,
  spans: readonly (StoredSpan & { currency: string; year: number })[],
  rows: readonly EuroRate[],
  at: Date,
): Promise<number> {
  const written = await saveEuroRates(db, rows, at);
  if (!spans.length) return written;
  // Spans in key order too (one statement's rows are locked in the order given).
  const ordered = [...spans].sort((a, b) =>
    a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : a.year - b.year,
  );
  await db
    .insert(fxCoverage)
    .values(ordered.map((s) => ({ ...s, storedAt: at })))
    .onConflictDoUpdate({
      target: [fxCoverage.currency, fxCoverage.year],
      set: {
        since: sql`least(${fxCoverage.since}, excluded.since)`,
        through: sql`greatest(${fxCoverage.through}, excluded.through)`,
        storedAt: sql`excluded.stored_at`,
      },
    });
  return written;
}
