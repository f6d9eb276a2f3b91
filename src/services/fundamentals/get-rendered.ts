import { readCorporateActions } from "../../db/repositories/corporate-actions";
import {
  latestFundDetails,
  snapshotsOf,
  storedEarnings,
  storedStatements,
  storedTrends,
} from "../../db/repositories/fundamentals";
import { insiderFetchDays, queryInsiderTransactions } from "../../db/repositories/insider";
import { recordVerdicts } from "../../db/repositories/validation-results";
import { BadRequestError } from "../../domain/errors";
import {
  day,
  type FundDetails,
  highlightTexts,
  horizonRank,
  profileOf,
  type Summary,
} from "../../domain/fundamentals/delayed-figures";
import { renderEarnings } from "../../domain/fundamentals/eodhd/earnings";
import { type FundInput, renderEtfData } from "../../domain/fundamentals/eodhd/etf-data";
import { renderFinancials } from "../../domain/fundamentals/eodhd/financials";
import { CATALOGUE, renderGeneral } from "../../domain/fundamentals/eodhd/general";
import { renderHighlights, renderTechnicals } from "../../domain/fundamentals/eodhd/highlights";
import { type InstitutionInput, renderHolders } from "../../domain/fundamentals/eodhd/holders";
import { renderInsiderTransactions } from "../../domain/fundamentals/eodhd/insider-transactions";
import type { FigureTable, Sourced, Sources } from "../../domain/fundamentals/eodhd/place";
import { SCRAPED_FIELDS } from "../../domain/fundamentals/fields";
import type { ScrapedPage, ScrapeTarget } from "../../domain/fundamentals/scraped-page";
import { driftVerdict, historyOf, type Verdict, validate } from "../../domain/fundamentals/validation";
import { isoDay } from "../../domain/instants";
import { unboxNumber } from "../../domain/numbers";
import {
  DELAYED,
  FUNDAMENTAL_PROVIDERS,
  isFundamentalProvider,
  SCRAPED_BUSINESSINSIDER,
} from "../../domain/provider-names";
import { splitSuffix } from "../../domain/provider-symbols";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { readThrough } from "../shared/read-through";
import { type Instrument, type InstrumentQuery, resolveInstrument } from "../shared/resolve-instrument";
import type { DelayedFundamentals } from "./delayed-fetch";
import { refreshFromDelayed } from "./refresh";

export interface RenderedQuery extends InstrumentQuery {
  /** Provider names to ask; all when absent. */
  provider?: string;
  fmt: "eodhd" | "raw";
  nocache: boolean;
}

type Json = Record<string, unknown>;

/**
 * What one provider answered this request. `failed`: it could not answer (a transport or provider
 * failure, which a retry may cure); an answer the service refuses (a page about another ISIN) is
 * not a failure.
 */
type Outcome =
  | { status: "ok"; answer: unknown; entry: Json; failed?: false }
  | { status: "error" | "not_queried" | "not_applicable"; entry: Json; failed?: boolean };

const database = (day: string) => `database (${day})`;

/** The providers asked: all, or those named (comma-separated), each a known name. */
function askedProviders(provider: string | undefined): string[] {
  if (!provider) return [...FUNDAMENTAL_PROVIDERS];
  const names = [
    ...new Set(
      provider
        .split(",")
        .map((p) => p.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const unknown = names.filter((n) => !isFundamentalProvider(n));
  if (names.length === 0 || unknown.length)
    throw new BadRequestError(
      `unknown provider ${unknown.join(", ") || "(none)"}; use one or several of ${FUNDAMENTAL_PROVIDERS.join(", ")}`,
    );
  return FUNDAMENTAL_PROVIDERS.filter((p) => names.includes(p));
}

interface DelayedResult {
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

const isPage = (x: ScrapedPage | Outcome): x is ScrapedPage => "figures" in x;

/**
 * A page's three figures through the validation layer, against the delayed provider's figure of
 * this request and the instrument's stored history. A page about another ISIN gives no figure at
 * all (spec /fundamental rule 4), and an EPS in another currency than the listing's is not its EPS.
 */
function judgePage(
  page: ScrapedPage,
  target: ScrapeTarget,
  delayedValues: ReadonlyMap<string, number>,
  history: readonly Record<string, number | string | null>[],
): { outcome: Outcome; verdicts: Verdict[]; values: Map<string, number> } {
  const values = new Map<string, number>();
  if (page.isin !== target.isin) {
    return {
      outcome: {
        status: "error",
        entry: {
          status: "error",
          url: page.url,
          isin: page.isin,
          error: page.isin
            ? `the page is about ${page.isin}, not ${target.isin}: its figures are not used`
            : `the page does not say which instrument it is about: its figures are not used`,
        },
      },
      verdicts: [],
      values,
    };
  }
  const verdicts: Verdict[] = [];
  const figures: Json = {};
  for (const field of SCRAPED_FIELDS) {
    const f = page.figures[field];
    if (!f) continue;
    if (field === "eps_ttm" && f.currency && f.currency !== target.currency) {
      figures[field] = {
        raw: f.value,
        value: null,
        status: "not_used",
        reason: `EPS in ${f.currency}; the listing is quoted in ${target.currency}`,
      };
      continue;
    }
    const peer = delayedValues.get(field);
    const v = validate(
      { provider: page.provider, field, value: f.value, unit: f.unit },
      { peers: peer === undefined ? [] : [peer], history: historyOf(history, field) },
    );
    verdicts.push(v);
    figures[field] = { raw: v.raw, value: v.value, status: v.status, reason: v.reason };
    if (v.status === "valid" && v.value !== null) values.set(field, v.value);
  }
  return {
    outcome: {
      status: "ok",
      answer: page,
      entry: { status: "ok", url: page.url, isin: page.isin, name: page.name, basis: page.basis, figures },
    },
    verdicts,
    values,
  };
}

/**
 * ETF_Data's inputs: holdings and weights from this request's answer, else the newest stored ones
 * (labelled with their fetch date); yield, costs and assets from the figure table.
 */
function fundOf(
  details: { data: FundDetails; label: string } | null,
  instrument: Instrument,
  table: FigureTable,
): { fund: FundInput; labels: Record<string, string> } {
  const labels: Record<string, string> = { ISIN: CATALOGUE };
  const fig = (field: string, key: string) => {
    const f = table.get(field);
    if (f) labels[key] = f.label;
    return typeof f?.value === "number" ? f.value : null;
  };
  const d = details?.data;
  if (details && d?.topHoldings.length) {
    labels.Top_10_Holdings = details.label;
    labels.Holdings_Count = details.label;
  }
  if (details && d?.sectorWeights.length) labels.Sector_Weights = details.label;
  if (details && d) labels.Asset_Allocation = details.label;
  const family = table.get("fund_family");
  const category = table.get("fund_category");
  if (family) labels.Company_Name = family.label;
  if (category) labels.Category = category.label;
  if (instrument.asset.country) labels.Domicile = CATALOGUE;
  return {
    fund: {
      isin: instrument.listing.isin,
      family: typeof family?.value === "string" ? family.value : null,
      domicile: instrument.asset.country,
      category: typeof category?.value === "string" ? category.value : null,
      yield: fig("fund_yield", "Yield"),
      expenseRatio: fig("expense_ratio", "NetExpenseRatio"),
      totalAssets: fig("total_assets", "TotalAssets"),
      holdings: d?.topHoldings ?? [],
      sectors: (d?.sectorWeights ?? []).map((s) => ({ name: s.sector, weight: s.weight })),
      positions: {
        cash: d?.assetClasses.cash ?? null,
        stock: d?.assetClasses.stock ?? null,
        bond: d?.assetClasses.bond ?? null,
      },
    },
    labels,
  };
}

/** The holders one ownership module lists (institutionOwnership, fundOwnership). */
function holdersOf(summary: Summary | null, module: "institutionOwnership" | "fundOwnership"): InstitutionInput[] {
  const list = ((summary?.[module] as Json | undefined)?.ownershipList as Json[] | undefined) ?? [];
  return list.map((o) => {
    const d = o.reportDate;
    return {
      name: String(o.organization ?? ""),
      date: day(d),
      pctHeld: unboxNumber(o.pctHeld),
      position: unboxNumber(o.position),
      pctChange: unboxNumber(o.pctChange),
    };
  });
}

export interface RenderedAnswer {
  body: Json;
  /** Every asked provider answered (or does not apply): then the answer is cached. */
  complete: boolean;
}

async function build(
  ctx: Context,
  instrument: Instrument,
  asked: readonly string[],
  fmt: "eodhd" | "raw",
): Promise<RenderedAnswer> {
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
    Promise.all(scrapedNames.map((name) => readPage(ctx, name, target))),
  ]);
  const db = ctx.db;
  const useDatabase = asked.includes(DELAYED);
  const today = ctx.clock.today();
  const snapshots = useDatabase ? await snapshotsOf(db, asset.id, listing.currency, { until: today }) : [];
  const history = snapshots.filter((s) => s.fetchDate < today).map((s) => s.highlights);

  // Rule 1 (a): the delayed provider's validated figures of this request.
  const table = new Map<string, Sourced>();
  const summary = delayed?.fetched?.summary ?? null;
  const delayedValues = new Map<string, number>();
  if (delayed?.fetched && summary) {
    for (const v of delayed.verdicts) {
      if (v.status === "valid" && v.value !== null) {
        table.set(v.field, { value: v.value, label: DELAYED });
        delayedValues.set(v.field, v.value);
      }
    }
    for (const [field, value] of Object.entries({ ...highlightTexts(summary), ...profileOf(summary) }))
      if (value !== null) table.set(field, { value, label: DELAYED });
  }
  // Rule 1 (b): figures stored by the deep enrichment, newest first.
  for (const s of snapshots) {
    for (const [field, value] of Object.entries({ ...s.highlights, ...s.analystRatings, ...s.profile })) {
      if (value !== null && !table.has(field)) table.set(field, { value, label: database(s.fetchDate) });
    }
  }
  const [statements, earnings, trends] = useDatabase
    ? await Promise.all([storedStatements(db, asset.id), storedEarnings(db, asset.id), storedTrends(db, asset.id)])
    : [[], [], []];
  // Rule 1 (c): scraped pages, for trailing P/E, EPS and dividend yield only.
  const outcomes: Record<string, Outcome> = {};
  if (delayed) outcomes[DELAYED] = delayed.outcome;
  const scrapedVerdicts: Verdict[] = [];
  scrapedNames.forEach((name, i) => {
    const page = pages[i];
    if (!page) return;
    if (!isPage(page)) {
      outcomes[name] = page;
      return;
    }
    const judged = judgePage(page, target, delayedValues, history);
    outcomes[name] = judged.outcome;
    scrapedVerdicts.push(...judged.verdicts, ...page.drifts.map(driftVerdict));
    for (const [field, value] of judged.values)
      if (!table.has(field)) table.set(field, { value, label: name, trailingOnly: true });
  });
  if (scrapedVerdicts.length)
    await recordVerdicts(db, { ticker: listing.ticker, day: today, at: ctx.clock.now(), verdicts: scrapedVerdicts });

  const complete = Object.values(outcomes).every((o) => !o.failed);
  if (fmt === "raw") {
    const body = Object.fromEntries(
      Object.entries(outcomes).map(([name, o]) => [
        name,
        o.status === "ok"
          ? {
              status: "ok",
              answer: o.answer,
              // The delayed provider's statements come from fundamentals-timeseries, quarterly ones included.
              ...(name === DELAYED && delayed?.fetched ? { timeseries: delayed.fetched.statements } : {}),
            }
          : o.entry,
      ]),
    );
    return { body: JSON.parse(JSON.stringify(body)) as Json, complete };
  }

  const sources: Sources = {};
  const fund = asset.quoteType === "ETF";
  const statementsLabel = delayed?.outcome.status === "ok" ? DELAYED : newestDay(statements.map((s) => s.fetchedAt));
  const general = renderGeneral(
    {
      code: splitSuffix(listing.ticker).base,
      type: fund ? "ETF" : "Common Stock",
      exchange: listing.exchange,
      currency: listing.currency,
      isin: listing.isin,
      countryIso: asset.country,
      catalogue: { name: asset.name, sector: asset.sector, industry: asset.industry },
      profile: table,
      updatedAt: today,
    },
    sources,
  );
  const providers = Object.fromEntries(Object.entries(outcomes).map(([name, o]) => [name, o.entry]));
  if (fund) {
    const live = delayed?.fund ?? null;
    const stored = live || !useDatabase ? null : await latestFundDetails(db, asset.id);
    const details = live
      ? { data: live, label: DELAYED }
      : stored
        ? { data: stored.details, label: database(stored.fetchDate) }
        : null;
    const { fund: data, labels } = fundOf(details, instrument, table);
    const technicals = renderTechnicals(table, sources);
    const etf = renderEtfData(data, labels, sources);
    return {
      body: { General: general, Technicals: technicals, ETF_Data: etf, Providers: providers, Sources: sources },
      complete,
    };
  }
  // The listing's dividends and splits as stored with its prices (none before its prices are).
  const events = useDatabase ? await readCorporateActions(db, listing.id) : undefined;
  const financialCurrency = snapshots[0]?.financialCurrency ?? statements[0]?.currency ?? null;
  const earningsLabel = delayed?.outcome.status === "ok" ? DELAYED : newestDay(earnings.map((e) => e.fetchedAt));
  const body = {
    General: general,
    ...renderHighlights(table, sources, events),
    Holders: renderHolders(
      { institutions: holdersOf(summary, "institutionOwnership"), funds: holdersOf(summary, "fundOwnership") },
      summary ? DELAYED : null,
      sources,
    ),
    InsiderTransactions: await insiderSection(ctx, instrument, sources),
    ESGScores: {},
    Earnings: renderEarnings(
      {
        history: earnings.map((e) => ({
          quarterEnd: e.quarterEnd,
          epsActual: e.epsActual === null ? null : Number(e.epsActual),
          epsEstimate: e.epsEstimate === null ? null : Number(e.epsEstimate),
          epsDifference: e.epsDifference === null ? null : Number(e.epsDifference),
          surprisePercent: e.surprisePercent === null ? null : Number(e.surprisePercent),
        })),
        trend: [...trends]
          .sort((a, b) => horizonRank(a.period) - horizonRank(b.period))
          .map((t) => ({
            period: t.period,
            endDate: t.endDate,
            growth: t.growth === null ? null : Number(t.growth),
            epsAvg: t.epsAvg === null ? null : Number(t.epsAvg),
            epsLow: t.epsLow === null ? null : Number(t.epsLow),
            epsHigh: t.epsHigh === null ? null : Number(t.epsHigh),
            revenueAvg: t.revenueAvg === null ? null : Number(t.revenueAvg),
            analysts: t.analysts,
          })),
        annual: statements
          .filter(
            (s) => s.statement === "income" && s.periodType === "annual" && typeof s.items.diluted_eps === "number",
          )
          .map((s) => ({ date: s.periodEnd, epsActual: s.items.diluted_eps as number })),
        currency: financialCurrency,
      },
      earnings.length || trends.length ? earningsLabel : null,
      sources,
    ),
    Financials: renderFinancials(
      statements.map((s) => ({
        statement: s.statement,
        periodType: s.periodType,
        periodEnd: s.periodEnd,
        currency: s.currency,
        items: s.items,
      })),
      financialCurrency,
      statements.length ? statementsLabel : null,
      sources,
    ),
    Providers: providers,
    Sources: sources,
  };
  return { body, complete };
}

/** How many Form 4 lines the document shows (GET /insider-transactions gives them all). */
const INSIDER_LINES = 20;

/** The stored Form 4 lines of a US issuer whose CIK is known (read, never fetched here). */
async function insiderSection(ctx: Context, { asset }: Instrument, sources: Sources) {
  if (asset.secCik === null) return {};
  const rows = await queryInsiderTransactions(ctx.db, asset.secCik, { limit: INSIDER_LINES });
  const label = newestDay(await insiderFetchDays(ctx.db, asset.secCik));
  return renderInsiderTransactions(
    rows.map((r) => ({
      filingDate: r.filingDate,
      ownerCik: r.ownerCik,
      ownerName: r.ownerName,
      transactionDate: r.transactionDate,
      code: r.code,
      shares: r.shares === null ? null : Number(r.shares),
      price: r.price === null ? null : Number(r.price),
      acquiredDisposed: r.acquiredDisposed,
      sharesOwnedAfter: r.sharesOwnedAfter === null ? null : Number(r.sharesOwnedAfter),
      filingUrl: r.filingUrl,
    })),
    label,
    sources,
  );
}

/** The label of stored rows: their newest fetch day. */
function newestDay(dates: readonly Date[]): string | null {
  if (dates.length === 0) return null;
  const newest = Math.max(...dates.map((d) => d.getTime()));
  return database(isoDay(new Date(newest)));
}

/**
 * GET /fundamental: the rendered document (fmt=eodhd) or each provider's answer (fmt=raw), for the
 * listing chosen as /eod chooses it. Cached one hour when every asked provider answered; `nocache`
 * builds it again.
 */
export async function getRenderedFundamentals({ ctx, input }: { ctx: Context; input: RenderedQuery }): Promise<Json> {
  const asked = askedProviders(input.provider);
  const instrument = await resolveInstrument({ ctx, input });
  // One build per listing at a time: concurrent requests take its document. Cached, and kept
  // elsewhere (the edge), only when every asked provider answered: a waiter, which cannot know
  // that of another builder's document, does not keep it.
  let complete = false;
  const { value: body } = await readThrough(ctx, {
    key: cacheKeys.fundamentals(`${instrument.listing.id}:${input.fmt}:${asked.join(",")}`),
    ttlSeconds: cacheTtls(ctx.config).fundamentals,
    lease: { listingId: instrument.listing.id, scope: "fundamentals" },
    fresh: input.nocache,
    build: async () => {
      const answer = await build(ctx, instrument, asked, input.fmt);
      complete = answer.complete;
      return answer.body;
    },
    shouldCache: () => complete,
  });
  return body;
}
