import { latestSnapshot, storedEarnings, storedStatements, storedTrends } from "../../db/repositories/fundamentals";
import { refusedValues } from "../../db/repositories/validation-results";
import { horizonRank } from "../../domain/fundamentals/delayed-figures";
import { DELAYED } from "../../domain/provider-names";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { readThrough } from "../shared/read-through";
import { type Instrument, type InstrumentQuery, resolveInstrument } from "../shared/resolve-instrument";
import { noteOf, refreshFromDelayed } from "./refresh";

export const DEEP_SECTIONS = ["highlights", "statements", "earnings", "ratings"] as const;
export type DeepSection = (typeof DEEP_SECTIONS)[number];

type Row = Record<string, number | string | null>;

export interface DeepDocument {
  asset_profile: { isin: string; ticker: string; name: string; exchange: string | null; currency: string };
  highlights?: Row;
  statements?: Record<"income" | "balance" | "cashflow", { annual: Row[]; quarterly: Row[] }>;
  earnings_history?: Row[];
  earnings_trend?: Row[];
  analyst_ratings?: Row;
  meta: {
    fetched_at: string | null;
    fetch_date: string | null;
    source: "delayed_provider" | "database";
    cache_hit: boolean;
    symbol: string | null;
    note?: string;
    rejected?: { field: string; value: number | null; status: string; reason: string | null }[];
  };
}

const n = (v: string | null) => (v === null ? null : Number(v));

/** Values the validation layer refused on the snapshot's day (the document says what it left out and why). */
async function rejectedOn(ctx: Context, ticker: string, day: string) {
  const rows = await refusedValues(ctx.db, DELAYED, ticker, day);
  return rows
    .map((r) => ({ field: r.field, value: n(r.value), status: r.status, reason: r.reason }))
    .sort((a, b) => (a.field < b.field ? -1 : 1));
}

/** The deep document of what the database holds for the instrument (the one way it is built). */
async function documentFromDatabase(
  ctx: Context,
  { listing, asset }: Instrument,
  meta: Pick<DeepDocument["meta"], "source" | "symbol" | "note">,
): Promise<DeepDocument> {
  const db = ctx.db;
  const [snapshot, statements, earnings, trends] = await Promise.all([
    latestSnapshot(db, asset.id, listing.currency, ctx.clock.today()),
    storedStatements(db, asset.id),
    storedEarnings(db, asset.id),
    storedTrends(db, asset.id),
  ]);
  const empty = () => ({ annual: [] as Row[], quarterly: [] as Row[] });
  const byStatement = { income: empty(), balance: empty(), cashflow: empty() };
  for (const s of statements) {
    byStatement[s.statement][s.periodType].push({ period_end: s.periodEnd, currency: s.currency, ...s.items });
  }
  const rejected = snapshot ? await rejectedOn(ctx, listing.ticker, snapshot.fetchDate) : [];
  return {
    asset_profile: {
      isin: listing.isin,
      ticker: listing.ticker,
      name: asset.name,
      exchange: listing.exchange,
      currency: listing.currency,
    },
    highlights: snapshot?.highlights ?? {},
    statements: byStatement,
    earnings_history: earnings.map((e) => ({
      quarter_end: e.quarterEnd,
      period: e.period,
      eps_actual: n(e.epsActual),
      eps_estimate: n(e.epsEstimate),
      eps_difference: n(e.epsDifference),
      surprise_percent: n(e.surprisePercent),
    })),
    earnings_trend: trends
      .sort((a, b) => horizonRank(a.period) - horizonRank(b.period))
      .map((t) => ({
        period: t.period,
        end_date: t.endDate,
        growth: n(t.growth),
        eps_avg: n(t.epsAvg),
        eps_low: n(t.epsLow),
        eps_high: n(t.epsHigh),
        revenue_avg: n(t.revenueAvg),
        analysts: t.analysts,
      })),
    analyst_ratings: snapshot?.analystRatings ?? {},
    meta: {
      fetched_at: snapshot ? snapshot.fetchedAt.toISOString() : null,
      fetch_date: snapshot?.fetchDate ?? null,
      cache_hit: false,
      ...meta,
      ...(rejected.length ? { rejected } : {}),
    },
  };
}

/**
 * Fetches and stores the instrument's fundamentals with its verified symbol, then reads the document
 * back; when there is no verified symbol or the provider fails, the database's document with a note
 * saying why (spec /fundamental/deep rule 2).
 */
async function freshDocument(ctx: Context, instrument: Instrument): Promise<DeepDocument> {
  const r = await refreshFromDelayed(ctx, instrument);
  if (r.status === "ok") return documentFromDatabase(ctx, instrument, { source: DELAYED, symbol: r.symbol });
  return documentFromDatabase(ctx, instrument, {
    source: "database",
    symbol: r.status === "error" ? r.symbol : null,
    note: noteOf(r),
  });
}

function restrict(doc: DeepDocument, sections: readonly DeepSection[]): DeepDocument {
  const wants = (s: DeepSection) => sections.includes(s);
  return {
    asset_profile: doc.asset_profile,
    ...(wants("highlights") ? { highlights: doc.highlights } : {}),
    ...(wants("statements") ? { statements: doc.statements } : {}),
    ...(wants("earnings") ? { earnings_history: doc.earnings_history, earnings_trend: doc.earnings_trend } : {}),
    ...(wants("ratings") ? { analyst_ratings: doc.analyst_ratings } : {}),
    meta: doc.meta,
  };
}

export interface DeepQuery extends InstrumentQuery {
  refresh: boolean;
  sections: readonly DeepSection[];
}

/**
 * GET /fundamental/deep: the cached complete document (24 h) unless `refresh`, else a fresh one;
 * only a document fetched from the provider is cached (a database answer is retried next time).
 */
export async function getDeepFundamentals({ ctx, input }: { ctx: Context; input: DeepQuery }): Promise<DeepDocument> {
  const instrument = await resolveInstrument({ ctx, input });
  // One enrichment per listing at a time: concurrent first requests take its document. Only a
  // document the provider gave is cached (one from the database is asked again next time).
  const { value } = await readThrough(ctx, {
    key: cacheKeys.fundamentalsDeep(String(instrument.listing.id)),
    ttlSeconds: cacheTtls(ctx.config).fundamentals_deep,
    lease: { listingId: instrument.listing.id, scope: "fundamentals_deep" },
    fresh: input.refresh,
    build: () => freshDocument(ctx, instrument),
    shouldCache: (doc) => doc.meta.source === DELAYED,
    asHit: (cached) => ({ ...cached, meta: { ...cached.meta, cache_hit: true } }),
  });
  return restrict(value, input.sections);
}
