import { and, asc, desc, eq, gte, inArray, lte, type SQLWrapper } from "drizzle-orm";
import type { Bar } from "../../domain/bars";
import type { Finding } from "../../domain/price-sanity";
import type { StoredPrecision } from "../../domain/provider-precision";
import type { Db } from "../client";
import { adjustmentChecks, pricesDaily } from "../schema";
import { type FindingRow, findingsQuery } from "./price-findings";

/** The columns of a stored daily bar, as `toBar` reads them. */
export const barColumns = {
  date: pricesDaily.date,
  open: pricesDaily.open,
  high: pricesDaily.high,
  low: pricesDaily.low,
  close: pricesDaily.close,
  adjClose: pricesDaily.adjClose,
  volume: pricesDaily.volume,
};

/** Which stored bars a read takes: an inclusive date window; `lastBars` keeps the newest N of it. */
export interface BarWindow {
  from?: string | null;
  to?: string | null;
  lastBars?: number | null;
}

/** Stored daily bars of a listing, ascending, within an optional inclusive window; `lastBars` keeps the newest N. */
export async function readDailyBars(db: Db, listingId: number, window: BarWindow = {}): Promise<Bar[]> {
  return inOrder(window, await windowQuery(db, listingId, window)).map(toBar);
}

/** A listing's bars in a window, with their source: newest first with `lastBars` (see `inOrder`), else ascending. */
function windowQuery(db: Db, listingId: number, window: BarWindow) {
  const conditions = [eq(pricesDaily.listingId, listingId)];
  if (window.from) conditions.push(gte(pricesDaily.date, window.from));
  if (window.to) conditions.push(lte(pricesDaily.date, window.to));
  const base = db
    .select({ ...barColumns, source: pricesDaily.dataSource })
    .from(pricesDaily)
    .where(and(...conditions));
  return window.lastBars
    ? base.orderBy(desc(pricesDaily.date)).limit(window.lastBars)
    : base.orderBy(asc(pricesDaily.date));
}

/** The rows of `windowQuery` ascending. */
const inOrder = <T>(window: BarWindow, rows: T[]): T[] => (window.lastBars ? rows.reverse() : rows);

/** `readDailyBars`, whether any of the bars came from `source`, and the net's findings from the window's start (one round trip). */
export async function readDailyWindow(
  db: Db,
  listingId: number,
  window: BarWindow,
  source: string,
): Promise<Pick<ListingPrices, "bars" | "windowHasSource" | "findings" | "precision">> {
  const [read, found, checked] = await db.batch([
    windowQuery(db, listingId, window),
    findingsQuery(db, [listingId], window.from),
    precisionQuery(db, [listingId]),
  ]);
  const rows = inOrder(window, read);
  return {
    bars: rows.map(toBar),
    windowHasSource: rows.some((r) => r.source === source),
    findings: found.map(toFinding),
    precision: checked[0]?.precision ?? "unchecked",
  };
}

export const toFinding = (r: FindingRow): Finding => ({ date: r.date, kind: r.kind, evidence: r.evidence });

type StoredBar = {
  date: string;
  open: string | null;
  high: string | null;
  low: string | null;
  close: string;
  adjClose: string;
  volume: number;
};

/** A stored row as a bar: numeric strings read as float64; a missing open/high/low reads as the close. */
export function toBar(r: StoredBar): Bar {
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
}

/** First and last stored date of a listing and how many bars it has. */
export interface StoredSpan {
  first: string;
  last: string;
  count: number;
}

/** What one read of a listing's stored prices sees. */
export interface ListingPrices {
  /** The window's bars, ascending. */
  bars: Bar[];
  /** Whether any of the window's bars came from the `source` asked about. */
  windowHasSource: boolean;
  /** All its stored bars' span (null: none stored). */
  stored: StoredSpan | null;
  /** The span of its bars from the `source` asked about (null: none). */
  sourced: { from: string; to: string } | null;
  /** What the price sanity net found from the window's start on (splits whatever their date). */
  findings: Finding[];
  /** The precision its checked bars are stored at; `unchecked` before its first check. */
  precision: StoredPrecision | "unchecked";
}

export const NO_PRICES: ListingPrices = {
  bars: [],
  windowHasSource: false,
  stored: null,
  sourced: null,
  findings: [],
  precision: "unchecked",
};

/** The stored precision of listings (their price checks' marker), one statement for a batch. */
export const precisionQuery = (db: Db, ids: SQLWrapper | number[]) =>
  db
    .select({ listingId: adjustmentChecks.listingId, precision: adjustmentChecks.precision })
    .from(adjustmentChecks)
    .where(inArray(adjustmentChecks.listingId, ids));
