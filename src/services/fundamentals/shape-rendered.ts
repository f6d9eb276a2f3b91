import type { snapshotsOf, storedEarnings, storedStatements, storedTrends } from "../../db/repositories/fundamentals";
import type { queryInsiderTransactions } from "../../db/repositories/insider";
import {
  currenciesOf,
  day,
  type FundDetails,
  horizonRank,
  type Summary,
} from "../../domain/fundamentals/delayed-figures";
import { renderCurrencies } from "../../domain/fundamentals/eodhd/currencies";
import { renderEarnings } from "../../domain/fundamentals/eodhd/earnings";
import { type FundInput, renderEtfData } from "../../domain/fundamentals/eodhd/etf-data";
import { renderFinancials } from "../../domain/fundamentals/eodhd/financials";
import { CATALOGUE, renderGeneral } from "../../domain/fundamentals/eodhd/general";
import { renderHighlights, renderTechnicals, type StoredEvents } from "../../domain/fundamentals/eodhd/highlights";
import { type InstitutionInput, renderHolders } from "../../domain/fundamentals/eodhd/holders";
import { renderInsiderTransactions } from "../../domain/fundamentals/eodhd/insider-transactions";
import type { FigureTable, Section, Sources } from "../../domain/fundamentals/eodhd/place";
import { type FigureCurrencies, figureCurrencies } from "../../domain/fundamentals/figure-currency";
import { type Json, newestDay, type Outcome } from "../../domain/fundamentals/rendered-outcome";
import { unboxNumber } from "../../domain/numbers";
import { DELAYED } from "../../domain/provider-names";
import { splitSuffix } from "../../domain/provider-symbols";
import type { Instrument } from "../shared/resolve-instrument";
import type { DelayedFundamentals } from "./delayed-fetch";

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

/** fmt=raw: each provider's answer as it came (the delayed provider's with its statements), or its entry. */
export function shapeRaw(outcomes: Record<string, Outcome>, fetched: DelayedFundamentals | null): Json {
  const body = Object.fromEntries(
    Object.entries(outcomes).map(([name, o]) => [
      name,
      o.status === "ok"
        ? {
            status: "ok",
            answer: o.answer,
            // The delayed provider's statements come from fundamentals-timeseries, quarterly ones included.
            ...(name === DELAYED && fetched ? { timeseries: fetched.statements } : {}),
          }
        : o.entry,
    ]),
  );
  return JSON.parse(JSON.stringify(body)) as Json;
}

/** Both layouts begin with General (the first entry of Sources) and end with Providers and Sources. */
function begin(instrument: Instrument, table: FigureTable, today: string, outcomes: Record<string, Outcome>) {
  const { listing, asset } = instrument;
  const sources: Sources = {};
  const general = renderGeneral(
    {
      code: splitSuffix(listing.ticker).base,
      type: asset.quoteType === "ETF" ? "ETF" : "Common Stock",
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
  return { sources, general, providers };
}

/** fmt=eodhd for a fund: General, Technicals and ETF_Data. */
export function shapeFundDocument(
  instrument: Instrument,
  figures: { table: FigureTable; outcomes: Record<string, Outcome> },
  details: { data: FundDetails; label: string } | null,
  today: string,
  /** The unit the provider quotes the fund in (its answer's, else the newest snapshot's): GBp for a pence line. */
  quoted: string | null,
): Json {
  const { table } = figures;
  const { sources, general, providers } = begin(instrument, table, today, figures.outcomes);
  const { fund: data, labels } = fundOf(details, instrument, table);
  const technicals = renderTechnicals(table, sources);
  const etf = renderEtfData(data, labels, sources);
  const doc: Section = { General: general, Technicals: technicals, ETF_Data: etf };
  const currencies = figureCurrencies(instrument.listing.currency, { quote: quoted, financial: null }, null);
  return { ...doc, Providers: providers, Sources: sources, Currencies: renderCurrencies(doc, currencies) };
}

/**
 * The currencies of a share's figures: what the provider said in this request's answer, else in
 * the newest stored snapshot, else the statements' own.
 */
function shareCurrencies(instrument: Instrument, r: ShareRecords): FigureCurrencies {
  const said = r.summary ? currenciesOf(r.summary) : { quote: null, financial: null };
  const snapshot = r.snapshots[0];
  return figureCurrencies(
    instrument.listing.currency,
    {
      quote: said.quote ?? snapshot?.currency ?? null,
      financial: said.financial ?? snapshot?.financialCurrency ?? null,
    },
    r.statements.find((s) => s.currency)?.currency ?? null,
  );
}

/** What a share's document is built from besides its figure table. */
export interface ShareRecords {
  /** The delayed provider answered this request: its statements and earnings are the ones stored. */
  delayedAnswered: boolean;
  summary: Summary | null;
  snapshots: Awaited<ReturnType<typeof snapshotsOf>>;
  statements: Awaited<ReturnType<typeof storedStatements>>;
  earnings: Awaited<ReturnType<typeof storedEarnings>>;
  trends: Awaited<ReturnType<typeof storedTrends>>;
  events: StoredEvents | undefined;
  /** The issuer's stored Form 4 lines with their label; null when its CIK is not known. */
  insider: { rows: Awaited<ReturnType<typeof queryInsiderTransactions>>; label: string | null } | null;
}

/** fmt=eodhd for a share: every section of EODHD's layout (ESGScores empty). */
export function shapeShareDocument(
  instrument: Instrument,
  figures: { table: FigureTable; outcomes: Record<string, Outcome> },
  r: ShareRecords,
  today: string,
): Json {
  const { table } = figures;
  const { statements, earnings, trends, summary } = r;
  const statementsLabel = r.delayedAnswered ? DELAYED : newestDay(statements.map((s) => s.fetchedAt));
  const { sources, general, providers } = begin(instrument, table, today, figures.outcomes);
  const currencies = shareCurrencies(instrument, r);
  const financialCurrency = currencies.reporting;
  const earningsLabel = r.delayedAnswered ? DELAYED : newestDay(earnings.map((e) => e.fetchedAt));
  const doc: Section = {
    General: general,
    ...renderHighlights(table, sources, r.events),
    Holders: renderHolders(
      { institutions: holdersOf(summary, "institutionOwnership"), funds: holdersOf(summary, "fundOwnership") },
      summary ? DELAYED : null,
      sources,
    ),
    InsiderTransactions: r.insider ? insiderTransactions(r.insider.rows, r.insider.label, sources) : {},
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
  };
  return { ...doc, Providers: providers, Sources: sources, Currencies: renderCurrencies(doc, currencies) };
}

/** The stored Form 4 lines in the document's layout. */
function insiderTransactions(
  rows: Awaited<ReturnType<typeof queryInsiderTransactions>>,
  label: string | null,
  sources: Sources,
) {
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
