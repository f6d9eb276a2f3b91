import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { CalendarRow } from "../../domain/earnings-calendar";
import type { EarningsRow } from "../../domain/fundamentals/delayed-figures";
import type { ListingFigures } from "../../domain/screen-figures";
import { inOneTransaction } from "../batch";
import type { Db } from "../client";
import { assets, earningsCalendar, earningsHistory } from "../schema";
import { preferredListingsSql } from "./catalogue";
import { screenFiguresUpsert } from "./screen-figures";

const dec = (x: number | null) => (x === null ? null : String(x));

/** Upserts an instrument's earnings history rows (one per fiscal quarter): the one statement of every path that stores them. */
export function earningsHistoryUpsert(
  db: Db,
  assetId: number,
  rows: readonly EarningsRow[],
  fetchedAt: Date,
): BatchItem<"pg"> {
  return db
    .insert(earningsHistory)
    .values(
      rows.map((r) => ({
        assetId,
        quarterEnd: r.quarterEnd,
        period: r.period,
        epsActual: dec(r.epsActual),
        epsEstimate: dec(r.epsEstimate),
        epsDifference: dec(r.epsDifference),
        surprisePercent: dec(r.surprisePercent),
        fetchedAt,
      })),
    )
    .onConflictDoUpdate({
      target: [earningsHistory.assetId, earningsHistory.quarterEnd],
      set: {
        period: sql`excluded.period`,
        epsActual: sql`excluded.eps_actual`,
        epsEstimate: sql`excluded.eps_estimate`,
        epsDifference: sql`excluded.eps_difference`,
        surprisePercent: sql`excluded.surprise_percent`,
        fetchedAt: sql`excluded.fetched_at`,
      },
    });
}

/**
 * Upserts an instrument's announced reports by fiscal quarter. A report held keeps the estimates
 * stored while it was coming (the provider names none for it any more); its day becomes the call's.
 */
export function earningsCalendarUpsert(
  db: Db,
  assetId: number,
  rows: readonly CalendarRow[],
  source: string,
  fetchedAt: Date,
): BatchItem<"pg"> {
  const kept = (column: string) => sql.raw(`coalesce(excluded.${column}, earnings_calendar.${column})`);
  return db
    .insert(earningsCalendar)
    .values(
      rows.map((r) => ({
        assetId,
        periodEnd: r.periodEnd,
        reportDate: r.reportDate,
        reportDateTo: r.reportDateTo,
        epsEstimate: dec(r.epsEstimate),
        epsLow: dec(r.epsLow),
        epsHigh: dec(r.epsHigh),
        revenueEstimate: dec(r.revenueEstimate),
        revenueLow: dec(r.revenueLow),
        revenueHigh: dec(r.revenueHigh),
        source,
        fetchedAt,
      })),
    )
    .onConflictDoUpdate({
      target: [earningsCalendar.assetId, earningsCalendar.periodEnd],
      set: {
        reportDate: sql`excluded.report_date`,
        reportDateTo: sql`excluded.report_date_to`,
        epsEstimate: kept("eps_estimate"),
        epsLow: kept("eps_low"),
        epsHigh: kept("eps_high"),
        revenueEstimate: kept("revenue_estimate"),
        revenueLow: kept("revenue_low"),
        revenueHigh: kept("revenue_high"),
        source: sql`excluded.source`,
        fetchedAt: sql`excluded.fetched_at`,
      },
    });
}

/**
 * Stores what one weekly earnings refresh read of an instrument, in one transaction: its quarters'
 * history, its announced reports, the figures a screen compares (in the quote's currency), and
 * when it was asked (also when it had nothing to say).
 */
export async function saveEarningsRefresh(
  db: Db,
  e: {
    assetId: number;
    history: readonly EarningsRow[];
    calendar: readonly CalendarRow[];
    figures: (ListingFigures & { asOf: string }) | null;
    source: string;
    at: Date;
  },
): Promise<void> {
  const statements: BatchItem<"pg">[] = [
    db.update(assets).set({ earningsCheckedAt: e.at }).where(eq(assets.id, e.assetId)),
  ];
  if (e.figures)
    statements.push(
      screenFiguresUpsert(db, {
        assetId: e.assetId,
        currency: e.figures.currency,
        figures: e.figures.figures,
        asOf: e.figures.asOf,
        source: e.source,
        at: e.at,
      }),
    );
  if (e.history.length) statements.push(earningsHistoryUpsert(db, e.assetId, e.history, e.at));
  if (e.calendar.length) statements.push(earningsCalendarUpsert(db, e.assetId, e.calendar, e.source, e.at));
  await inOneTransaction(db, statements);
}

/** What the weekly earnings refresh needs of an instrument: its kind, and when it was last asked about. */
export async function earningsRefreshState(
  db: Db,
  assetId: number,
): Promise<{ quoteType: string | null; checkedAt: Date | null }> {
  const [row] = await db
    .select({ quoteType: assets.quoteType, checkedAt: assets.earningsCheckedAt })
    .from(assets)
    .where(eq(assets.id, assetId));
  return { quoteType: row?.quoteType ?? null, checkedAt: row?.checkedAt ?? null };
}

/** One fiscal quarter's report of an instrument: announced (calendar), reported (history), or both. */
export interface StoredReport {
  assetId: number;
  /** The instrument's preferred active listing (the /eod choice) and name. */
  ticker: string;
  exchange: string | null;
  isin: string;
  name: string;
  periodEnd: string;
  reportDate: string | null;
  reportDateTo: string | null;
  epsEstimate: number | null;
  epsLow: number | null;
  epsHigh: number | null;
  revenueEstimate: number | null;
  epsActual: number | null;
  epsDifference: number | null;
  surprisePercent: number | null;
  /** When the provider last said anything of this quarter. */
  fetchedAt: Date;
}

type Row = Record<keyof Omit<StoredReport, "assetId" | "fetchedAt">, string | null> & {
  asset_id: number;
  fetched_at: string | Date;
};

const n = (v: string | null) => (v === null ? null : Number(v));

/**
 * The reports of a window, oldest first, in one statement: each fiscal quarter of the calendar and
 * of the history joined (a full join: a quarter reported before the service first asked has no
 * announced day; one still coming has no actual), placed by its report's day (a range expected
 * is in every window it overlaps), or by its quarter's end when no day was ever announced; with each instrument's preferred listing. Only `assetIds`
 * when given. The estimate shown is the history's (the consensus at the report), else the last
 * one announced.
 */
export async function readEarningsCalendar(
  db: Db,
  window: { from: string; to: string; assetIds: readonly number[] | null },
): Promise<StoredReport[]> {
  if (window.assetIds?.length === 0) return [];
  const only = window.assetIds
    ? sql`AND r.asset_id IN (${sql.join(
        window.assetIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const result = await db.execute<Row>(sql`
    SELECT r.*, p.ticker, l.exchange, p.isin, a.name
    FROM (
      SELECT coalesce(c.asset_id, h.asset_id) AS asset_id,
             coalesce(c.period_end, h.quarter_end)::text AS "periodEnd",
             coalesce(c.report_date, h.quarter_end) AS placed,
             coalesce(c.report_date_to, c.report_date, h.quarter_end) AS placed_to,
             c.report_date::text AS "reportDate", c.report_date_to::text AS "reportDateTo",
             coalesce(h.eps_estimate, c.eps_estimate)::text AS "epsEstimate",
             c.eps_low::text AS "epsLow", c.eps_high::text AS "epsHigh",
             c.revenue_estimate::text AS "revenueEstimate",
             h.eps_actual::text AS "epsActual", h.eps_difference::text AS "epsDifference",
             h.surprise_percent::text AS "surprisePercent",
             greatest(c.fetched_at, h.fetched_at) AS fetched_at
      FROM earnings_calendar c
      FULL JOIN earnings_history h ON h.asset_id = c.asset_id AND h.quarter_end = c.period_end
    ) r
    JOIN (${preferredListingsSql()}) p ON p.asset_id = r.asset_id
    JOIN listings l ON l.id = p.id
    JOIN assets a ON a.id = r.asset_id
    WHERE r.placed <= ${window.to} AND r.placed_to >= ${window.from} ${only}
    ORDER BY r.placed, p.ticker COLLATE "C", r."periodEnd"`);
  return result.rows.map((r) => ({
    assetId: Number(r.asset_id),
    ticker: String(r.ticker),
    exchange: r.exchange,
    isin: String(r.isin),
    name: String(r.name),
    periodEnd: String(r.periodEnd),
    reportDate: r.reportDate,
    reportDateTo: r.reportDateTo,
    epsEstimate: n(r.epsEstimate),
    epsLow: n(r.epsLow),
    epsHigh: n(r.epsHigh),
    revenueEstimate: n(r.revenueEstimate),
    epsActual: n(r.epsActual),
    epsDifference: n(r.epsDifference),
    surprisePercent: n(r.surprisePercent),
    fetchedAt: new Date(r.fetched_at),
  }));
}
