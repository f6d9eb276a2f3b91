import { readCorporateActions } from "../../db/repositories/corporate-actions";
import {
  latestFundDetails,
  snapshotsOf,
  storedEarnings,
  storedStatements,
  storedTrends,
} from "../../db/repositories/fundamentals";
import { insiderFetchDays, queryInsiderTransactions } from "../../db/repositories/insider";
import type { FundDetails } from "../../domain/fundamentals/delayed-figures";
import { databaseLabel, newestDay, type Outcome } from "../../domain/fundamentals/rendered-outcome";
import type { ScrapedPage, ScrapeTarget } from "../../domain/fundamentals/scraped-page";
import type { Verdict } from "../../domain/fundamentals/validation";
import { DELAYED, SCRAPED_BUSINESSINSIDER } from "../../domain/provider-names";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import type { Instrument } from "../shared/resolve-instrument";
import type { DelayedFundamentals } from "./delayed-fetch";
import { refreshFromDelayed } from "./refresh";

export interface DelayedResult {
  outcome: Outcome;
  fetched: DelayedFundamentals | null;
  verdicts: Verdict[];
  /** The fund's holdings and weights as the validation layer let them through. */
  fund: FundDetails | null;
}

/** The delayed provider's part: the shared refresh, as this document reports it. */
async function askDelayed(ctx: Context, instrument: Instrument): Promise<DelayedResult> {
  const r = await refreshFromDelayed(ctx, instrument);
  if (r.status === "not_queried")
    return {
      outcome: { status: "not_queried", entry: { status: "not_queried", symbol: null, reason: r.reason } },
      fetched: null,
      verdicts: [],
      fund: null,
    };
  if (r.status === "error")
    return {
      outcome: { status: "error", failed: true, entry: { status: "error", symbol: r.symbol, error: r.error.message } },
      fetched: null,
      verdicts: [],
      fund: null,
    };
  const rejected = r.verdicts.filter((v) => v.status === "out_of_range" || v.status === "outlier");
  return {
    outcome: {
      status: "ok",
      answer: r.fetched.summary,
      entry: {
        status: "ok",
        symbol: r.symbol,
        figures: r.verdicts.filter((v) => v.status === "valid").length,
        rejected: rejected.map((v) => ({ field: v.field, value: v.raw, status: v.status, reason: v.reason })),
      },
    },
    fetched: r.fetched,
    verdicts: r.verdicts,
    fund: r.fund,
  };
}

/** A scraped page, or why there is none. */
async function readPage(ctx: Context, name: string, target: ScrapeTarget): Promise<ScrapedPage | Outcome> {
  const provider = ctx.providers.scraped.find((p) => p.name === name);
  if (!provider?.covers(target))
    return {
      status: "not_applicable",
      entry: {
        status: "not_applicable",
        reason: `${name} publishes figures of ${name === SCRAPED_BUSINESSINSIDER ? "US" : "European"} shares only`,
      },
    };
  try {
    return await provider.read(target);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    return { status: "error", failed: true, entry: { status: "error", error: err.message } };
  }
}

/** What the rendered document is built from: each asked provider's answer and the stored figures. */
export interface RenderedInputs {
  target: ScrapeTarget;
  delayed: DelayedResult | null;
  /** Each asked scraped provider's page, or why there is none, in the order asked. */
  pages: { name: string; page: ScrapedPage | Outcome }[];
  /** Stored figures are read only when the delayed provider is asked (its enrichment stored them). */
  useDatabase: boolean;
  today: string;
  snapshots: Awaited<ReturnType<typeof snapshotsOf>>;
  statements: Awaited<ReturnType<typeof storedStatements>>;
  earnings: Awaited<ReturnType<typeof storedEarnings>>;
  trends: Awaited<ReturnType<typeof storedTrends>>;
}

/** The asked providers' answers (all at once), then the figures stored for the instrument. */
export async function gatherRendered(
  ctx: Context,
  instrument: Instrument,
  asked: readonly string[],
): Promise<RenderedInputs> {
  const { listing, asset } = instrument;
  const target: ScrapeTarget = {
    isin: listing.isin,
    ticker: listing.ticker,
    currency: listing.currency,
    kind: asset.quoteType === "ETF" ? "fund" : "share",
  };
  const scrapedNames = asked.filter((p) => p !== DELAYED);
  const [delayed, pages] = await Promise.all([
    asked.includes(DELAYED) ? askDelayed(ctx, instrument) : null,
    Promise.all(scrapedNames.map(async (name) => ({ name, page: await readPage(ctx, name, target) }))),
  ]);
  const db = ctx.db;
  const useDatabase = asked.includes(DELAYED);
  const today = ctx.clock.today();
  const snapshots = useDatabase ? await snapshotsOf(db, asset.id, listing.currency, { until: today }) : [];
  const [statements, earnings, trends] = useDatabase
    ? await Promise.all([storedStatements(db, asset.id), storedEarnings(db, asset.id), storedTrends(db, asset.id)])
    : [[], [], []];
  return {
    target,
    delayed,
    pages,
    useDatabase,
    today,
    snapshots,
    statements,
    earnings,
    trends,
  };
}

/** A fund's holdings and weights: this request's answer, else the newest stored ones (labelled with their fetch date). */
export async function gatherFundDetails(
  ctx: Context,
  { asset }: Instrument,
  live: FundDetails | null,
  useDatabase: boolean,
): Promise<{ data: FundDetails; label: string } | null> {
  const stored = live || !useDatabase ? null : await latestFundDetails(ctx.db, asset.id);
  return live
    ? { data: live, label: DELAYED }
    : stored
      ? { data: stored.details, label: databaseLabel(stored.fetchDate) }
      : null;
}

/** How many Form 4 lines the document shows (GET /insider-transactions gives them all). */
const INSIDER_LINES = 20;

/**
 * A share's stored events and insider lines: the listing's dividends and splits as stored with its
 * prices (none before its prices are), and the stored Form 4 lines of a US issuer whose CIK is
 * known (read, never fetched here).
 */
export async function gatherShareRecords(ctx: Context, { listing, asset }: Instrument, useDatabase: boolean) {
  const events = useDatabase ? await readCorporateActions(ctx.db, listing.id) : undefined;
  if (asset.secCik === null) return { events, insider: null };
  const rows = await queryInsiderTransactions(ctx.db, asset.secCik, { limit: INSIDER_LINES });
  const label = newestDay(await insiderFetchDays(ctx.db, asset.secCik));
  return { events, insider: { rows, label } };
}
