import { and, asc, desc, eq, gt, gte, lte, notInArray, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { AdjustmentMismatch, Dividend, Split } from "../../domain/corporate-actions";
import type { Finding } from "../../domain/price-sanity";
import type { StoredPrecision } from "../../domain/provider-precision";
import { inOneTransaction } from "../batch";
import type { Db } from "../client";
import { adjustmentChecks, assets, dividends, listings, pricesDaily, splits } from "../schema";
import { BAR_SCOPE, scopedFindingsQuery } from "./price-findings";
import { barColumns, toBar } from "./prices";

/** Conditions of an inclusive date window, either end open. */
const within = (column: AnyPgColumn, from?: string, to?: string) => [
  ...(from ? [gte(column, from)] : []),
  ...(to ? [lte(column, to)] : []),
];

/**
 * Upserts a listing's dividends and splits (one transaction, one round trip); a row is rewritten
 * only when its values changed, so a rerun writes nothing. Answers the dates of the events that
 * are new or changed: past adjusted closes do not know them yet.
 *
 * `replaceWithin`: windows the answer covered whole (a listing's stored span asked again): a
 * stored event of a kind the answer has, inside them and absent from it, was withdrawn or moved by
 * the provider and goes. A kind the answer has none of is left alone: a whole list gone is more
 * likely a format change (reported as drift) than every event withdrawn.
 */
export async function upsertCorporateActions(
  db: Db,
  listingId: number,
  events: { dividends: readonly Dividend[]; splits: readonly Split[] },
  source: string,
  replaceWithin: readonly { from: string; to: string }[] = [],
): Promise<string[]> {
  const statements = [];
  /** A kind's stored events inside `r` that the answer (`kept`, non-empty) no longer has. */
  const withdrawn = (date: AnyPgColumn, listing: AnyPgColumn, r: { from: string; to: string }, kept: string[]) =>
    and(eq(listing, listingId), ...within(date, r.from, r.to), notInArray(date, kept));
  for (const r of replaceWithin) {
    if (events.dividends.length > 0)
      statements.push(
        db.delete(dividends).where(
          withdrawn(
            dividends.exDate,
            dividends.listingId,
            r,
            events.dividends.map((d) => d.date),
          ),
        ),
      );
    if (events.splits.length > 0)
      statements.push(
        db.delete(splits).where(
          withdrawn(
            splits.date,
            splits.listingId,
            r,
            events.splits.map((x) => x.date),
          ),
        ),
      );
  }
  if (events.dividends.length > 0)
    statements.push(
      db
        .insert(dividends)
        .values(events.dividends.map((d) => ({ listingId, exDate: d.date, amount: String(d.amount), source })))
        .onConflictDoUpdate({
          target: [dividends.listingId, dividends.exDate],
          set: { amount: sql`excluded.amount`, source: sql`excluded.source`, updatedAt: sql`now()` },
          setWhere: sql`(${dividends.amount}, ${dividends.source}) IS DISTINCT FROM (excluded.amount, excluded.source)`,
        })
        .returning({ date: dividends.exDate }),
    );
  if (events.splits.length > 0)
    statements.push(
      db
        .insert(splits)
        .values(
          events.splits.map((s) => ({
            listingId,
            date: s.date,
            numerator: String(s.numerator),
            denominator: String(s.denominator),
            source,
          })),
        )
        .onConflictDoUpdate({
          target: [splits.listingId, splits.date],
          set: {
            numerator: sql`excluded.numerator`,
            denominator: sql`excluded.denominator`,
            source: sql`excluded.source`,
            updatedAt: sql`now()`,
          },
          setWhere: sql`(${splits.numerator}, ${splits.denominator}, ${splits.source})
            IS DISTINCT FROM (excluded.numerator, excluded.denominator, excluded.source)`,
        })
        .returning({ date: splits.date }),
    );
  const results = (await inOneTransaction(db, statements)) as unknown[];
  // The deletes come first and return no rows of dates; the upserts' rows are the events written.
  const written = results.filter((r): r is { date: string }[] => Array.isArray(r));
  return [...new Set(written.flat().map((r) => r.date))].sort();
}

export interface StoredDividend extends Dividend {
  source: string;
}
export interface StoredSplit extends Split {
  source: string;
}

type Window = { from?: string; to?: string };

/** A listing's stored dividends and splits within a window, oldest first: the one read of them (a statement each, for a batch). */
const eventQueries = (db: Db, listingId: number, window: Window) =>
  [
    db
      .select({ date: dividends.exDate, amount: dividends.amount, source: dividends.source })
      .from(dividends)
      .where(and(eq(dividends.listingId, listingId), ...within(dividends.exDate, window.from, window.to)))
      .orderBy(asc(dividends.exDate)),
    db
      .select({
        date: splits.date,
        numerator: splits.numerator,
        denominator: splits.denominator,
        source: splits.source,
      })
      .from(splits)
      .where(and(eq(splits.listingId, listingId), ...within(splits.date, window.from, window.to)))
      .orderBy(asc(splits.date)),
  ] as const;

type EventRows = Awaited<ReturnType<typeof eventQueries>[0]>;
type SplitRows = Awaited<ReturnType<typeof eventQueries>[1]>;

/** The rows of `eventQueries` as numbers. */
const eventsOf = (divs: EventRows, spls: SplitRows) => ({
  dividends: divs.map((d): StoredDividend => ({ date: d.date, amount: Number(d.amount), source: d.source })),
  splits: spls.map(
    (x): StoredSplit => ({
      date: x.date,
      numerator: Number(x.numerator),
      denominator: Number(x.denominator),
      source: x.source,
    }),
  ),
});

/**
 * A listing's stored dividends and splits within an inclusive window (either end open), oldest
 * first, and the first session its prices are stored from (the events are as old as the prices).
 */
export async function readCorporateActions(
  db: Db,
  listingId: number,
  window: Window = {},
): Promise<{ dividends: StoredDividend[]; splits: StoredSplit[]; storedFrom: string | null }> {
  const [divQuery, splitQuery] = eventQueries(db, listingId, window);
  const [divs, spls, first] = await db.batch([
    divQuery,
    splitQuery,
    db
      .select({ date: pricesDaily.date })
      .from(pricesDaily)
      .where(eq(pricesDaily.listingId, listingId))
      .orderBy(asc(pricesDaily.date))
      .limit(1),
  ]);
  return { ...eventsOf(divs, spls), storedFrom: first[0]?.date ?? null };
}

/**
 * What a listing's price checks read of it, in one round trip: every stored bar (prices, volume,
 * and whether `source` gave it: the adjustment check holds only the bars of the provider whose
 * adjustments the events are, the sanity net all of them), its events and its stored findings.
 */
export async function readCheckInputs(db: Db, listingId: number, source: string) {
  const [divQuery, splitQuery] = eventQueries(db, listingId, {});
  const [bars, divs, spls, findings] = await db.batch([
    db
      .select({
        ...barColumns,
        // A flag rather than the name: thousands of rows, each read whole.
        fromSource: sql<boolean>`${pricesDaily.dataSource} = ${source}`,
      })
      .from(pricesDaily)
      .where(eq(pricesDaily.listingId, listingId))
      .orderBy(asc(pricesDaily.date)),
    divQuery,
    splitQuery,
    scopedFindingsQuery(db, listingId, BAR_SCOPE),
  ]);
  return {
    findings: findings as Finding[],
    bars: bars.map((b) => ({ ...toBar(b), fromSource: b.fromSource })),
    ...eventsOf(divs, spls),
  };
}

export interface AdjustmentCheck {
  checkedAt: Date;
  bars: number;
  dividends: number;
  splits: number;
  mismatches: number;
  detail: AdjustmentMismatch[];
  precision: StoredPrecision;
}

/** Records a listing's latest check (one row a listing: a rerun replaces it): a statement, for a transaction. */
export function saveAdjustmentCheck(db: Db, listingId: number, check: AdjustmentCheck) {
  return db
    .insert(adjustmentChecks)
    .values({ listingId, ...check })
    .onConflictDoUpdate({
      target: adjustmentChecks.listingId,
      set: {
        checkedAt: sql`excluded.checked_at`,
        bars: sql`excluded.bars`,
        dividends: sql`excluded.dividends`,
        splits: sql`excluded.splits`,
        mismatches: sql`excluded.mismatches`,
        detail: sql`excluded.detail`,
        precision: sql`excluded.precision`,
      },
    });
}

/** The checks: how many listings were checked, and those whose adjusted closes disagree, most mismatches first. */
export async function adjustmentSummary(db: Db, limit: number) {
  const [totals, disagreeing] = await db.batch([
    db
      .select({
        checked: sql<number>`count(*)::int`,
        disagreeing: sql<number>`count(*) FILTER (WHERE ${adjustmentChecks.mismatches} > 0)::int`,
        lastCheckedAt: sql<string | null>`max(${adjustmentChecks.checkedAt})`,
      })
      .from(adjustmentChecks),
    db
      .select({
        ticker: listings.ticker,
        exchange: listings.exchange,
        isin: assets.isin,
        mismatches: adjustmentChecks.mismatches,
        checkedAt: adjustmentChecks.checkedAt,
        detail: adjustmentChecks.detail,
      })
      .from(adjustmentChecks)
      .innerJoin(listings, eq(listings.id, adjustmentChecks.listingId))
      .innerJoin(assets, eq(assets.id, listings.assetId))
      .where(gt(adjustmentChecks.mismatches, 0))
      .orderBy(desc(adjustmentChecks.mismatches), asc(listings.ticker), asc(listings.id))
      .limit(limit),
  ]);
  const t = totals[0];
  return {
    checked: t?.checked ?? 0,
    disagreeing: t?.disagreeing ?? 0,
    lastCheckedAt: t?.lastCheckedAt ? new Date(t.lastCheckedAt) : null,
    listings: disagreeing,
  };
}

/** A listing's latest adjustment check, or null when none has run. */
export async function readAdjustmentCheck(db: Db, listingId: number): Promise<AdjustmentCheck | null> {
  const [row] = await db
    .select({
      checkedAt: adjustmentChecks.checkedAt,
      bars: adjustmentChecks.bars,
      dividends: adjustmentChecks.dividends,
      splits: adjustmentChecks.splits,
      mismatches: adjustmentChecks.mismatches,
      detail: adjustmentChecks.detail,
      precision: adjustmentChecks.precision,
    })
    .from(adjustmentChecks)
    .where(eq(adjustmentChecks.listingId, listingId))
    .limit(1);
  return row ?? null;
}
