import { and, desc, eq, lt, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { CalendarRow } from "../../domain/earnings-calendar";
import type { EarningsRow, FundDetails, TrendRow } from "../../domain/fundamentals/delayed-figures";
import type { StatementKind, StatementPeriod, StatementRow } from "../../domain/fundamentals/statements";
import type { ListingFigures } from "../../domain/screen-figures";
import { inOneTransaction } from "../batch";
import type { Db } from "../client";
import {
  assets,
  earningsHistory,
  earningsTrends,
  etfDetails,
  financialStatements,
  fundamentalSnapshots,
} from "../schema";
import { earningsCalendarUpsert, earningsHistoryUpsert } from "./earnings-calendar";
import { screenFiguresUpsert } from "./screen-figures";

/** What one deep enrichment stores: the day's snapshot and the rows it fetched. */
export interface Enrichment {
  assetId: number;
  fetchDate: string;
  fetchedAt: Date;
  symbol: string;
  source: string;
  currency: string | null;
  financialCurrency: string | null;
  highlights: Record<string, number | string | null>;
  analystRatings: Record<string, number | string | null>;
  profile: Record<string, number | string | null>;
  statements: { statement: StatementKind; period: StatementPeriod; rows: StatementRow[] }[];
  earnings: EarningsRow[];
  /** The reports the calendar modules announced. */
  calendar: CalendarRow[];
  trends: TrendRow[];
  /** A fund's holdings and weights. */
  fund: FundDetails | null;
  /** The figures a screen compares, under the listing's currency (figuresForListing); null when none. */
  screen: ListingFigures | null;
}

export type SnapshotRow = typeof fundamentalSnapshots.$inferSelect;

const dec = (x: number | null) => (x === null ? null : String(x));

/**
 * Stores an enrichment in one transaction, every write an upsert on its natural key (instrument and
 * fetch date; statement, period type and period end; quarter; trend period): a rerun the same day
 * updates the rows, never adds a second, and a concurrent identical run leaves the same rows.
 */
export async function saveEnrichment(db: Db, e: Enrichment): Promise<void> {
  const statements: BatchItem<"pg">[] = [
    db
      .insert(fundamentalSnapshots)
      .values({
        assetId: e.assetId,
        fetchDate: e.fetchDate,
        symbol: e.symbol,
        currency: e.currency,
        financialCurrency: e.financialCurrency,
        highlights: e.highlights,
        analystRatings: e.analystRatings,
        profile: e.profile,
        source: e.source,
        fetchedAt: e.fetchedAt,
      })
      .onConflictDoUpdate({
        target: [fundamentalSnapshots.assetId, fundamentalSnapshots.symbol, fundamentalSnapshots.fetchDate],
        set: {
          symbol: sql`excluded.symbol`,
          currency: sql`excluded.currency`,
          financialCurrency: sql`excluded.financial_currency`,
          highlights: sql`excluded.highlights`,
          analystRatings: sql`excluded.analyst_ratings`,
          profile: sql`excluded.profile`,
          source: sql`excluded.source`,
          fetchedAt: sql`excluded.fetched_at`,
        },
      }),
  ];
  // The figures a screen compares, kept apart for it (one row per instrument and currency).
  if (e.screen)
    statements.push(
      screenFiguresUpsert(db, {
        assetId: e.assetId,
        currency: e.screen.currency,
        figures: e.screen.figures,
        asOf: e.fetchDate,
        source: e.source,
        at: e.fetchedAt,
      }),
    );
  const statementRows = e.statements.flatMap((s) =>
    s.rows.map((r) => ({
      assetId: e.assetId,
      statement: s.statement,
      periodType: s.period,
      periodEnd: r.periodEnd,
      currency: e.financialCurrency,
      items: r.items,
      source: e.source,
      fetchedAt: e.fetchedAt,
    })),
  );
  if (statementRows.length)
    statements.push(
      db
        .insert(financialStatements)
        .values(statementRows)
        .onConflictDoUpdate({
          target: [
            financialStatements.assetId,
            financialStatements.statement,
            financialStatements.periodType,
            financialStatements.periodEnd,
          ],
          set: {
            currency: sql`excluded.currency`,
            items: sql`excluded.items`,
            source: sql`excluded.source`,
            fetchedAt: sql`excluded.fetched_at`,
          },
        }),
    );
  if (e.earnings.length) statements.push(earningsHistoryUpsert(db, e.assetId, e.earnings, e.fetchedAt));
  // The enrichment read the calendar's modules too: its reports are stored, and asked about now.
  if (e.calendar.length) statements.push(earningsCalendarUpsert(db, e.assetId, e.calendar, e.source, e.fetchedAt));
  statements.push(db.update(assets).set({ earningsCheckedAt: e.fetchedAt }).where(eq(assets.id, e.assetId)));
  if (e.fund)
    statements.push(
      db
        .insert(etfDetails)
        .values({
          assetId: e.assetId,
          fetchDate: e.fetchDate,
          symbol: e.symbol,
          details: e.fund,
          fetchedAt: e.fetchedAt,
        })
        .onConflictDoUpdate({
          target: [etfDetails.assetId, etfDetails.fetchDate],
          set: { symbol: sql`excluded.symbol`, details: sql`excluded.details`, fetchedAt: sql`excluded.fetched_at` },
        }),
    );
  if (e.trends.length)
    statements.push(
      db
        .insert(earningsTrends)
        .values(
          e.trends.map((t) => ({
            assetId: e.assetId,
            period: t.period,
            endDate: t.endDate,
            growth: dec(t.growth),
            epsAvg: dec(t.epsAvg),
            epsLow: dec(t.epsLow),
            epsHigh: dec(t.epsHigh),
            revenueAvg: dec(t.revenueAvg),
            analysts: t.analysts,
            fetchedAt: e.fetchedAt,
          })),
        )
        .onConflictDoUpdate({
          target: [earningsTrends.assetId, earningsTrends.period],
          set: {
            endDate: sql`excluded.end_date`,
            growth: sql`excluded.growth`,
            epsAvg: sql`excluded.eps_avg`,
            epsLow: sql`excluded.eps_low`,
            epsHigh: sql`excluded.eps_high`,
            revenueAvg: sql`excluded.revenue_avg`,
            analysts: sql`excluded.analysts`,
            fetchedAt: sql`excluded.fetched_at`,
          },
        }),
    );
  await inOneTransaction(db, statements);
}

/**
 * Snapshots of an instrument quoted in `currency` (the listing's: pence lines count as pounds),
 * newest first, fetched on or before `until`: per-share figures are only ever read in the currency
 * they were fetched in.
 */
export async function snapshotsOf(
  db: Db,
  assetId: number,
  currency: string,
  opts: { until?: string; before?: string; limit?: number } = {},
): Promise<SnapshotRow[]> {
  const conditions = [
    eq(fundamentalSnapshots.assetId, assetId),
    sql`upper(coalesce(${fundamentalSnapshots.currency}, ${currency})) = upper(${currency})`,
  ];
  if (opts.until) conditions.push(lte(fundamentalSnapshots.fetchDate, opts.until));
  if (opts.before) conditions.push(lt(fundamentalSnapshots.fetchDate, opts.before));
  return db
    .select()
    .from(fundamentalSnapshots)
    .where(and(...conditions))
    .orderBy(desc(fundamentalSnapshots.fetchDate), desc(fundamentalSnapshots.fetchedAt))
    .limit(opts.limit ?? 10);
}

/** The newest stored snapshot of an instrument in the listing's currency, or null. */
export async function latestSnapshot(
  db: Db,
  assetId: number,
  currency: string,
  until?: string,
): Promise<SnapshotRow | null> {
  const [row] = await snapshotsOf(db, assetId, currency, { until, limit: 1 });
  return row ?? null;
}

/** Highlights of the snapshots stored before `day` in the currency, newest first (the instrument's own history). */
export async function earlierHighlights(
  db: Db,
  assetId: number,
  currency: string,
  day: string,
  limit = 5,
): Promise<Record<string, number | string | null>[]> {
  return (await snapshotsOf(db, assetId, currency, { before: day, limit })).map((r) => r.highlights);
}

export type StoredStatement = typeof financialStatements.$inferSelect;

/** Every stored statement row of an instrument, newest period first. */
export async function storedStatements(db: Db, assetId: number): Promise<StoredStatement[]> {
  return db
    .select()
    .from(financialStatements)
    .where(eq(financialStatements.assetId, assetId))
    .orderBy(desc(financialStatements.periodEnd));
}

export type StoredEarnings = typeof earningsHistory.$inferSelect;

export async function storedEarnings(db: Db, assetId: number): Promise<StoredEarnings[]> {
  return db
    .select()
    .from(earningsHistory)
    .where(eq(earningsHistory.assetId, assetId))
    .orderBy(desc(earningsHistory.quarterEnd));
}

export type StoredTrend = typeof earningsTrends.$inferSelect;

export async function storedTrends(db: Db, assetId: number): Promise<StoredTrend[]> {
  return db.select().from(earningsTrends).where(eq(earningsTrends.assetId, assetId));
}

export type StoredFundDetails = typeof etfDetails.$inferSelect;

/** A fund's newest stored holdings and weights. */
export async function latestFundDetails(db: Db, assetId: number): Promise<StoredFundDetails | null> {
  const [row] = await db
    .select()
    .from(etfDetails)
    .where(eq(etfDetails.assetId, assetId))
    .orderBy(desc(etfDetails.fetchDate))
    .limit(1);
  return row ?? null;
}
