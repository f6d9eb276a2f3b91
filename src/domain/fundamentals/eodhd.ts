import Decimal from "decimal.js";
import { type Dividend, dividendsByYear, type Split, splitRatio } from "../corporate-actions";
import type { EarningsRow, TrendRow } from "./delayed-figures";

/**
 * The rendered fundamentals document in EODHD's layout (fmt=eodhd): section and field names as
 * EODHD spells them (typos included), numbers in the snapshot sections, two-decimal strings in
 * statement rows, null for unknown, ratios as ratios and percents as percents (EODHD's
 * PercentInsiders, PercentInstitutions, surprisePercent, Assets_% and Yield of funds are percents).
 * Pure: the caller has chosen each figure's source (spec /fundamental rule 1); this module places
 * each figure and writes its label into Sources.
 */

/** A figure chosen for the document and where it came from. */
export interface Sourced {
  value: number | string;
  label: string;
  /** A trailing figure read from a web page: never placed where a forward figure is meant. */
  trailingOnly?: boolean;
}

/** Forward figures: a page's trailing value is another quantity (spec /fundamental rule 2). */
const FORWARD_KEYS = new Set(["ForwardAnnualDividendYield", "ForwardAnnualDividendRate"]);

export type FigureTable = ReadonlyMap<string, Sourced>;

export type Sources = Record<string, Record<string, string>>;

type Section = Record<string, unknown>;

/** How a service figure appears in a section: EODHD's name, and a scale (x100 for EODHD's percents). */
type Placement = [eodhd: string, field: string | null, scale?: "percent" | "millions"];

const HIGHLIGHTS: Placement[] = [
  ["MarketCapitalization", "market_cap"],
  ["MarketCapitalizationMln", "market_cap", "millions"],
  ["EBITDA", "ebitda"],
  ["PERatio", "pe_ratio"],
  ["PEGRatio", "peg_ratio"],
  ["WallStreetTargetPrice", "target_price"],
  ["BookValue", "book_value_per_share"],
  ["DividendShare", "dividend_rate"],
  ["DividendYield", "dividend_yield"],
  ["EarningsShare", "eps_ttm"],
  ["EPSEstimateCurrentYear", "eps_estimate_current_year"],
  ["EPSEstimateNextYear", "eps_estimate_next_year"],
  ["EPSEstimateNextQuarter", "eps_estimate_next_quarter"],
  ["EPSEstimateCurrentQuarter", "eps_estimate_current_quarter"],
  ["MostRecentQuarter", "most_recent_quarter"],
  ["ProfitMargin", "profit_margin"],
  ["OperatingMarginTTM", "operating_margin"],
  ["ReturnOnAssetsTTM", "roa"],
  ["ReturnOnEquityTTM", "roe"],
  ["RevenueTTM", "revenue_ttm"],
  ["RevenuePerShareTTM", "revenue_per_share"],
  ["QuarterlyRevenueGrowthYOY", "quarterly_revenue_growth"],
  ["GrossProfitTTM", "gross_profit_ttm"],
  ["DilutedEpsTTM", "eps_ttm"],
  ["QuarterlyEarningsGrowthYOY", "quarterly_earnings_growth"],
];

const VALUATION: Placement[] = [
  ["TrailingPE", "pe_ratio"],
  ["ForwardPE", "forward_pe"],
  ["PriceSalesTTM", "price_to_sales"],
  ["PriceBookMRQ", "price_to_book"],
  ["EnterpriseValue", "enterprise_value"],
  ["EnterpriseValueRevenue", "ev_to_revenue"],
  ["EnterpriseValueEbitda", "ev_to_ebitda"],
];

const SHARES_STATS: Placement[] = [
  ["SharesOutstanding", "shares_outstanding"],
  ["SharesFloat", "shares_float"],
  ["PercentInsiders", "percent_insiders", "percent"],
  ["PercentInstitutions", "percent_institutions", "percent"],
  ["SharesShort", "shares_short"],
  ["SharesShortPriorMonth", null],
  ["ShortRatio", "short_ratio"],
  ["ShortPercentOutstanding", null],
  ["ShortPercentFloat", "short_percent_float"],
];

const TECHNICALS: Placement[] = [
  ["Beta", "beta"],
  ["52WeekHigh", "fifty_two_week_high"],
  ["52WeekLow", "fifty_two_week_low"],
  ["50DayMA", "fifty_day_average"],
  ["200DayMA", "two_hundred_day_average"],
  ["SharesShort", "shares_short"],
  ["SharesShortPriorMonth", null],
  ["ShortRatio", "short_ratio"],
  ["ShortPercent", "short_percent_float"],
];

const SPLITS_DIVIDENDS: Placement[] = [
  ["ForwardAnnualDividendRate", "dividend_rate"],
  ["ForwardAnnualDividendYield", "dividend_yield"],
  ["PayoutRatio", "payout_ratio"],
  ["DividendDate", "dividend_date"],
  ["ExDividendDate", "ex_dividend_date"],
  ["LastSplitFactor", "last_split_factor"],
  ["LastSplitDate", "last_split_date"],
];

const ANALYST_RATINGS: Placement[] = [
  ["Rating", "rating"],
  ["TargetPrice", "target_price"],
  ["StrongBuy", "strong_buy"],
  ["Buy", "buy"],
  ["Hold", "hold"],
  ["Sell", "sell"],
  ["StrongSell", "strong_sell"],
];

function scaled(v: number | string, scale: Placement[2]): number | string {
  if (typeof v !== "number" || !scale) return v;
  // In decimal: 0.0171 becomes 1.71, not 1.7100000000000002.
  return scale === "percent" ? new Decimal(v).times(100).toNumber() : new Decimal(v).div(1e6).toNumber();
}

/** One snapshot section: every EODHD field present (null when unknown), each known one labelled in Sources. */
function place(name: string, placements: Placement[], figures: FigureTable, sources: Sources): Section {
  const section: Section = {};
  const labels: Record<string, string> = {};
  for (const [key, field, scale] of placements) {
    const found = field ? figures.get(field) : undefined;
    const f = found?.trailingOnly && FORWARD_KEYS.has(key) ? undefined : found;
    section[key] = f ? scaled(f.value, scale) : null;
    if (f) labels[key] = f.label;
  }
  if (Object.keys(labels).length) sources[name] = labels;
  return section;
}

/** Service statement items (snake_case, the provider's signs) -> EODHD line items. */
const INCOME_ITEMS: Record<string, string> = {
  total_revenue: "totalRevenue",
  cost_of_revenue: "costOfRevenue",
  gross_profit: "grossProfit",
  research_and_development: "researchDevelopment",
  selling_general_and_administration: "sellingGeneralAdministrative",
  operating_expense: "totalOperatingExpenses",
  operating_income: "operatingIncome",
  ebit: "ebit",
  ebitda: "ebitda",
  reconciled_depreciation: "reconciledDepreciation",
  interest_expense: "interestExpense",
  pretax_income: "incomeBeforeTax",
  tax_provision: "incomeTaxExpense",
  net_income: "netIncome",
  net_income_common_stockholders: "netIncomeApplicableToCommonShares",
};
const BALANCE_ITEMS: Record<string, string> = {
  total_assets: "totalAssets",
  total_liabilities_net_minority_interest: "totalLiab",
  stockholders_equity: "totalStockholderEquity",
  cash_and_cash_equivalents: "cashAndEquivalents",
  total_debt: "shortLongTermDebtTotal",
  net_debt: "netDebt",
  ordinary_shares_number: "commonStockSharesOutstanding",
  current_assets: "totalCurrentAssets",
  current_liabilities: "totalCurrentLiabilities",
  long_term_debt: "longTermDebt",
  current_debt: "shortTermDebt",
  retained_earnings: "retainedEarnings",
  inventory: "inventory",
  accounts_payable: "accountsPayable",
  accounts_receivable: "netReceivables",
  goodwill: "goodWill",
  net_ppe: "propertyPlantAndEquipmentNet",
};
const CASHFLOW_ITEMS: Record<string, string> = {
  operating_cash_flow: "totalCashFromOperatingActivities",
  capital_expenditure: "capitalExpenditures",
  free_cash_flow: "freeCashFlow",
  cash_dividends_paid: "dividendsPaid",
  depreciation_and_amortization: "depreciation",
  repurchase_of_capital_stock: "salePurchaseOfStock",
  net_income_from_continuing_operations: "netIncome",
};

/** EODHD writes capital expenditure as a positive magnitude (free cash flow = operations - capex). */
const MAGNITUDES = new Set(["capitalExpenditures"]);

const twoDecimals = (x: number) => new Decimal(x).toFixed(2);

export interface StatementInput {
  statement: "income" | "balance" | "cashflow";
  periodType: "annual" | "quarterly";
  periodEnd: string;
  currency: string | null;
  items: Record<string, number | null>;
}

const STATEMENT_LAYOUT = [
  ["Balance_Sheet", "balance", BALANCE_ITEMS],
  ["Cash_Flow", "cashflow", CASHFLOW_ITEMS],
  ["Income_Statement", "income", INCOME_ITEMS],
] as const;

/** Financials: each statement's rows keyed by period end, yearly and quarterly, items as two-decimal strings. */
export function renderFinancials(
  rows: readonly StatementInput[],
  currency: string | null,
  label: string | null,
  sources: Sources,
) {
  const out: Section = {};
  const labels: Record<string, string> = {};
  for (const [name, kind, items] of STATEMENT_LAYOUT) {
    const of = (period: "annual" | "quarterly") =>
      Object.fromEntries(
        rows
          .filter((r) => r.statement === kind && r.periodType === period)
          .sort((a, b) => (a.periodEnd < b.periodEnd ? 1 : -1))
          .map((r) => {
            const row: Record<string, string | null> = {
              date: r.periodEnd,
              filing_date: null,
              currency_symbol: r.currency ?? currency,
            };
            for (const [ours, theirs] of Object.entries(items)) {
              const v = r.items[ours];
              row[theirs] = typeof v === "number" ? twoDecimals(MAGNITUDES.has(theirs) ? Math.abs(v) : v) : null;
            }
            return [r.periodEnd, row];
          }),
      );
    const yearly = of("annual");
    const quarterly = of("quarterly");
    out[name] = { currency_symbol: currency, quarterly, yearly };
    if (label && (Object.keys(yearly).length || Object.keys(quarterly).length)) labels[name] = label;
  }
  if (Object.keys(labels).length) sources.Financials = labels;
  return out;
}

export interface EarningsInput {
  history: Omit<EarningsRow, "period">[];
  trend: TrendRow[];
  /** Fiscal years' diluted EPS from the stored income statements. */
  annual: { date: string; epsActual: number }[];
  currency: string | null;
}

const decString = (x: number | null, dp = 4) => (x === null ? null : new Decimal(x).toFixed(dp));

/**
 * Earnings: History and Annual keyed by period end; Trend keyed by its end date, the horizon added
 * to the key when two horizons end the same day (a quarter ending with the fiscal year), so no
 * entry hides another.
 */
export function renderEarnings(input: EarningsInput, label: string | null, sources: Sources): Section {
  const history = Object.fromEntries(
    [...input.history]
      .sort((a, b) => (a.quarterEnd < b.quarterEnd ? 1 : -1))
      .map((h) => [
        h.quarterEnd,
        {
          reportDate: null,
          date: h.quarterEnd,
          beforeAfterMarket: null,
          currency: input.currency,
          epsActual: h.epsActual,
          epsEstimate: h.epsEstimate,
          epsDifference: h.epsDifference,
          surprisePercent: h.surprisePercent,
        },
      ]),
  );
  const trend: Section = {};
  for (const t of input.trend) {
    const date = t.endDate ?? t.period;
    const key = date in trend ? `${date}_${t.period}` : date;
    trend[key] = {
      date,
      period: t.period,
      growth: decString(t.growth),
      earningsEstimateAvg: decString(t.epsAvg),
      earningsEstimateLow: decString(t.epsLow),
      earningsEstimateHigh: decString(t.epsHigh),
      earningsEstimateNumberOfAnalysts: decString(t.analysts),
      revenueEstimateAvg: decString(t.revenueAvg, 2),
    };
  }
  const annual = Object.fromEntries(input.annual.map((a) => [a.date, { date: a.date, epsActual: a.epsActual }]));
  if (label) {
    const labels: Record<string, string> = {};
    if (Object.keys(history).length) labels.History = label;
    if (Object.keys(trend).length) labels.Trend = label;
    if (Object.keys(annual).length) labels.Annual = label;
    if (Object.keys(labels).length) sources.Earnings = labels;
  }
  return { History: history, Trend: trend, Annual: annual };
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

export interface GeneralInput {
  code: string;
  type: "Common Stock" | "ETF";
  exchange: string | null;
  currency: string;
  isin: string;
  countryIso: string | null;
  /** Catalogue fallbacks for the name, sector and industry. */
  catalogue: { name: string; sector: string | null; industry: string | null };
  /** Profile figures (name, description, address, ...) with their labels. */
  profile: FigureTable;
  updatedAt: string;
}

/** The label of figures the catalogue itself holds (the instrument's identity). */
export const CATALOGUE = "catalogue";

export function renderGeneral(g: GeneralInput, sources: Sources): Section {
  const labels: Record<string, string> = {};
  const from = (key: string, field: string, fallback: string | null = null) => {
    const f = g.profile.get(field);
    if (f) {
      labels[key] = f.label;
      return f.value;
    }
    if (fallback !== null) labels[key] = CATALOGUE;
    return fallback;
  };
  const identity = (key: string, value: string | null) => {
    if (value !== null) labels[key] = CATALOGUE;
    return value;
  };
  const address = ["address", "city", "zip", "country"]
    .map((k) => g.profile.get(k))
    .filter((f): f is Sourced => f !== undefined);
  const fyEnd = g.profile.get("last_fiscal_year_end");
  const section: Section = {
    Code: identity("Code", g.code),
    Type: identity("Type", g.type),
    Name: from("Name", "name", g.catalogue.name),
    Exchange: identity("Exchange", g.exchange),
    CurrencyCode: identity("CurrencyCode", g.currency),
    CountryName: from("CountryName", "country"),
    CountryISO: identity("CountryISO", g.countryIso),
    ISIN: identity("ISIN", g.isin),
    Sector: from("Sector", "sector", g.catalogue.sector),
    Industry: from("Industry", "industry", g.catalogue.industry),
    Description: from("Description", "description"),
    Address: address.length ? address.map((a) => a.value).join(", ") : null,
    WebURL: from("WebURL", "website"),
    Phone: from("Phone", "phone"),
    FullTimeEmployees: from("FullTimeEmployees", "employees"),
    FiscalYearEnd: typeof fyEnd?.value === "string" ? (MONTHS[Number(fyEnd.value.slice(5, 7)) - 1] ?? null) : null,
    UpdatedAt: g.updatedAt,
  };
  if (address[0]) labels.Address = address[0].label;
  if (fyEnd && section.FiscalYearEnd) labels.FiscalYearEnd = fyEnd.label;
  sources.General = labels;
  return section;
}

/** A listing's stored dividends and splits (each with the provider it came from), oldest first. */
export interface StoredEvents {
  dividends: readonly (Dividend & { source: string })[];
  splits: readonly (Split & { source: string })[];
  /** The first session the listing's prices (and so its events) are stored from. */
  storedFrom: string | null;
}
const NO_EVENTS: StoredEvents = { dividends: [], splits: [], storedFrom: null };

/**
 * SplitsDividends: the provider's figures, then what the stored events say better: the dividends
 * counted by year (EODHD's pseudo-array, oldest year first; the whole years the stored prices
 * cover) and the last split, each labelled with
 * the provider the events came from (the prices' own, checked against the adjusted closes).
 */
function splitsDividends(figures: FigureTable, sources: Sources, events: StoredEvents): Section {
  const section: Section = {
    ...place("SplitsDividends", SPLITS_DIVIDENDS, figures, sources),
    NumberDividendsByYear: {},
  };
  const labels: Record<string, string> = { ...(sources.SplitsDividends ?? {}) };
  const byYear = Object.entries(dividendsByYear(events.dividends, events.storedFrom ?? undefined)).sort(([a], [b]) =>
    a < b ? -1 : 1,
  );
  if (byYear.length) {
    section.NumberDividendsByYear = Object.fromEntries(
      byYear.map(([year, count], i) => [String(i), { Year: Number(year), Count: count }]),
    );
    labels.NumberDividendsByYear = events.dividends.at(-1)?.source ?? "";
  }
  const last = events.splits.at(-1);
  if (last) {
    section.LastSplitFactor = splitRatio(last);
    section.LastSplitDate = last.date;
    labels.LastSplitFactor = last.source;
    labels.LastSplitDate = last.source;
  }
  if (Object.keys(labels).length) sources.SplitsDividends = labels;
  return section;
}

export function renderHighlights(figures: FigureTable, sources: Sources, events: StoredEvents = NO_EVENTS) {
  return {
    Highlights: place("Highlights", HIGHLIGHTS, figures, sources),
    Valuation: place("Valuation", VALUATION, figures, sources),
    SharesStats: place("SharesStats", SHARES_STATS, figures, sources),
    Technicals: place("Technicals", TECHNICALS, figures, sources),
    SplitsDividends: splitsDividends(figures, sources, events),
    AnalystRatings: place("AnalystRatings", ANALYST_RATINGS, figures, sources),
  };
}

export function renderTechnicals(figures: FigureTable, sources: Sources): Section {
  return place("Technicals", TECHNICALS.slice(0, 5), figures, sources);
}

export interface InstitutionInput {
  name: string;
  date: string | null;
  /** Ratios, as the delayed provider sends them. */
  pctHeld: number | null;
  position: number | null;
  pctChange: number | null;
}

/** Holders: EODHD's pseudo-arrays keyed "0".."n"; totalShares and change_p in percent. */
export function renderHolders(
  holders: { institutions: readonly InstitutionInput[]; funds: readonly InstitutionInput[] },
  label: string | null,
  sources: Sources,
): Section {
  const pct = (x: number | null) => (x === null ? null : new Decimal(x).times(100).toNumber());
  const rowsOf = (list: readonly InstitutionInput[]) =>
    Object.fromEntries(
      list.map((h, i) => [
        String(i),
        {
          name: h.name,
          date: h.date,
          totalShares: pct(h.pctHeld),
          totalAssets: null,
          currentShares: h.position,
          change: null,
          change_p: pct(h.pctChange),
        },
      ]),
    );
  const labels: Record<string, string> = {};
  if (label && holders.institutions.length) labels.Institutions = label;
  if (label && holders.funds.length) labels.Funds = label;
  if (Object.keys(labels).length) sources.Holders = labels;
  return { Institutions: rowsOf(holders.institutions), Funds: rowsOf(holders.funds) };
}

export interface FundInput {
  isin: string;
  family: string | null;
  domicile: string | null;
  category: string | null;
  /** Ratios. */
  yield: number | null;
  expenseRatio: number | null;
  totalAssets: number | null;
  holdings: { symbol: string; name: string; weight: number | null }[];
  sectors: { name: string; weight: number }[];
  positions: { cash: number | null; stock: number | null; bond: number | null };
}

const pctString = (x: number | null, dp = 2) => (x === null ? null : new Decimal(x).times(100).toFixed(dp));

/** ETF_Data: scalars as strings, Yield and every "_%" in percent, NetExpenseRatio a ratio. */
export function renderEtfData(f: FundInput, labels: Record<string, string>, sources: Sources): Section {
  sources.ETF_Data = labels;
  return {
    ISIN: f.isin,
    Company_Name: f.family,
    Company_URL: null,
    ETF_URL: null,
    Domicile: f.domicile,
    Index_Name: null,
    Category: f.category,
    Yield: f.yield === null ? null : new Decimal(f.yield).times(100).toFixed(6),
    NetExpenseRatio: f.expenseRatio === null ? null : new Decimal(f.expenseRatio).toFixed(5),
    TotalAssets: f.totalAssets === null ? null : new Decimal(f.totalAssets).toFixed(2),
    Holdings_Count: f.holdings.length,
    Top_10_Holdings: Object.fromEntries(
      f.holdings.slice(0, 10).map((h) => [
        h.symbol,
        {
          Code: h.symbol,
          Exchange: null,
          Name: h.name,
          "Assets_%": h.weight === null ? null : new Decimal(h.weight).times(100).toNumber(),
        },
      ]),
    ),
    Sector_Weights: Object.fromEntries(
      f.sectors.map((s) => [s.name, { "Equity_%": pctString(s.weight, 3), Relative_to_Category: null }]),
    ),
    Asset_Allocation: {
      Cash: { "Net_Assets_%": pctString(f.positions.cash) },
      Stock: { "Net_Assets_%": pctString(f.positions.stock) },
      Bond: { "Net_Assets_%": pctString(f.positions.bond) },
    },
  };
}

export interface InsiderInput {
  filingDate: string;
  ownerCik: string | null;
  ownerName: string;
  transactionDate: string | null;
  code: string;
  shares: number | null;
  price: number | null;
  acquiredDisposed: string | null;
  sharesOwnedAfter: number | null;
  filingUrl: string;
}

/** InsiderTransactions: EODHD's pseudo-array of Form 4 lines, newest first, each labelled in Sources. */
export function renderInsiderTransactions(
  rows: readonly InsiderInput[],
  label: string | null,
  sources: Sources,
): Section {
  const out = Object.fromEntries(
    rows.map((r, i) => [
      String(i),
      {
        date: r.filingDate,
        ownerCik: r.ownerCik,
        ownerName: r.ownerName,
        transactionDate: r.transactionDate,
        transactionCode: r.code,
        transactionAmount: r.shares,
        transactionPrice: r.price,
        transactionAcquiredDisposed: r.acquiredDisposed,
        postTransactionAmount: r.sharesOwnedAfter,
        secLink: r.filingUrl,
      },
    ]),
  );
  if (label && rows.length) sources.InsiderTransactions = Object.fromEntries(rows.map((_, i) => [String(i), label]));
  return out;
}
