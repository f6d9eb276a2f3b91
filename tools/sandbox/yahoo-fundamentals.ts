import { FUNDAMENTALS_AS_OF, type SimCompany, type SimPeriod } from "./fundamentals-data";

/**
 * The delayed provider's quoteSummary v10 modules and fundamentals-timeseries answers, built from a
 * simulated company in the real wire format: module-level scalars plain with `formatted=false` and
 * `{raw, fmt}` otherwise, values inside lists always `{raw, fmt[, longFmt]}`, ratios as fractions,
 * dates as epoch seconds, the statement modules near-empty (as they are since late 2024).
 */

const epoch = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);
const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

function fmtNumber(x: number): string {
  const a = Math.abs(x);
  if (a >= 1e12) return `${(x / 1e12).toFixed(2)}T`;
  if (a >= 1e9) return `${(x / 1e9).toFixed(2)}B`;
  if (a >= 1e6) return `${(x / 1e6).toFixed(2)}M`;
  if (a >= 1e3) return `${(x / 1e3).toFixed(2)}k`;
  return x.toFixed(2);
}

/** A value inside a list (always formatted), or any value when the caller did not ask formatted=false. */
const boxed = (x: number | null) =>
  x === null
    ? {}
    : Number.isInteger(x) && Math.abs(x) >= 1e5
      ? { raw: x, fmt: fmtNumber(x), longFmt: x.toLocaleString("en-US") }
      : { raw: x, fmt: fmtNumber(x) };
const boxedPct = (x: number) => ({ raw: x, fmt: `${(x * 100).toFixed(2)}%` });
const boxedDate = (day: string) => ({ raw: epoch(day), fmt: day });

type Scalar = (x: number | null) => unknown;

/** Every module the simulator serves, for an equity and for a fund. */
export const EQUITY_MODULES = [
  "price",
  "summaryDetail",
  "defaultKeyStatistics",
  "financialData",
  "assetProfile",
  "earningsHistory",
  "earningsTrend",
  "recommendationTrend",
  "majorHoldersBreakdown",
  "institutionOwnership",
  "fundOwnership",
  "calendarEvents",
  "incomeStatementHistory",
  "balanceSheetHistory",
  "cashflowStatementHistory",
  "quoteType",
  "esgScores",
] as const;
export const FUND_MODULES = [
  "price",
  "assetProfile",
  "summaryDetail",
  "defaultKeyStatistics",
  "fundProfile",
  "topHoldings",
  "quoteType",
] as const;

/** Holdings of the simulated funds: real constituents of the indexes they track, weights fixed. */
const FUND_HOLDINGS: [symbol: string, name: string, weight: number][] = [
  ["NVDA", "NVIDIA Corp", 0.0712],
  ["AAPL", "Apple Inc", 0.0641],
  ["MSFT", "Microsoft Corp", 0.0598],
  ["AMZN", "Amazon.com Inc", 0.0389],
  ["META", "Meta Platforms Inc Class A", 0.0281],
  ["GOOGL", "Alphabet Inc Class A", 0.0232],
  ["AVGO", "Broadcom Inc", 0.0219],
  ["GOOG", "Alphabet Inc Class C", 0.0188],
  ["TSLA", "Tesla Inc", 0.0176],
  ["BRK-B", "Berkshire Hathaway Inc Class B", 0.0165],
];
const SECTOR_WEIGHTS: [string, number][] = [
  ["technology", 0.3312],
  ["financial_services", 0.1301],
  ["healthcare", 0.1004],
  ["consumer_cyclical", 0.1035],
  ["communication_services", 0.0921],
  ["industrials", 0.0812],
  ["consumer_defensive", 0.0561],
  ["energy", 0.0318],
  ["utilities", 0.0243],
  ["realestate", 0.0222],
  ["basic_materials", 0.0271],
];

const ADDRESSES: Record<string, { address1: string; city: string; zip: string; country: string; website: string }> = {
  US: { address1: "1 Market Street", city: "New York", zip: "10004", country: "United States", website: "" },
  FR: { address1: "22 avenue Montaigne", city: "Paris", zip: "75008", country: "France", website: "" },
  DE: { address1: "Dietmar-Hopp-Allee 16", city: "Walldorf", zip: "69190", country: "Germany", website: "" },
  NL: { address1: "De Run 6501", city: "Veldhoven", zip: "5504 DR", country: "Netherlands", website: "" },
  IT: { address1: "Via Abetone Inferiore 4", city: "Maranello", zip: "41053", country: "Italy", website: "" },
  GB: { address1: "1 Churchill Place", city: "London", zip: "E14 5HP", country: "United Kingdom", website: "" },
};

function website(c: SimCompany): string {
  const word = c.seed.name.split(/[\s,.]+/)[0]?.toLowerCase() ?? "company";
  return `https://www.${word}.com`;
}

/**
 * A price figure in the unit the provider quotes the line in: a London pence line's in pence (the
 * recorded OCDO.L answer: price, day range, 52-week range and moving averages in pence, market
 * capitalisation in pounds). The simulated company's prices are in pounds.
 */
const inQuoted = (c: SimCompany, x: number) => (c.sym.currency === "GBp" ? Math.round(x * 100 * 1e4) / 1e4 : x);

function priceModule(c: SimCompany, n: Scalar) {
  const change = c.price - c.previousClose;
  return {
    maxAge: 1,
    regularMarketChangePercent: n(r4(change / c.previousClose)),
    regularMarketChange: n(inQuoted(c, Math.round(change * 100) / 100)),
    regularMarketTime: epoch(FUNDAMENTALS_AS_OF) + 21 * 3600,
    priceHint: n(2),
    regularMarketPrice: n(inQuoted(c, c.price)),
    regularMarketPreviousClose: n(inQuoted(c, c.previousClose)),
    regularMarketVolume: n(1_250_000),
    exchange: c.sym.yahooExchange,
    exchangeName: c.sym.fullExchangeName,
    exchangeDataDelayedBy: c.sym.currency === "USD" ? 0 : 15,
    marketState: "CLOSED",
    quoteType: c.sym.quoteType,
    symbol: c.sym.symbol,
    underlyingSymbol: null,
    shortName: c.sym.name.slice(0, 24),
    longName: c.sym.name,
    currency: c.sym.currency,
    quoteSourceName: c.sym.currency === "USD" ? "Nasdaq Real Time Price" : "Delayed Quote",
    currencySymbol: c.sym.currency === "USD" ? "$" : c.sym.currency === "EUR" ? "€" : "£",
    fromCurrency: null,
    toCurrency: null,
    lastMarket: null,
    // A fund's price module has no market capitalisation (recorded answers).
    ...(c.sym.quoteType === "ETF" ? {} : { marketCap: n(Math.round(c.price * c.sharesOutstanding)) }),
  };
}

function summaryDetail(c: SimCompany, n: Scalar, faults: { pe: number | null; percentYields: boolean }) {
  const { pe } = faults;
  const eps = c.ttm.dilutedEps * c.quoteFx;
  const fund = c.sym.quoteType === "ETF";
  const ratio = c.dividendRate > 0 ? r4(c.dividendRate / c.price) : null;
  // The percent-scaled fault: 2.15 for a yield of 2.15 % (the provider documents 0.0215).
  const dividendYield = ratio !== null && faults.percentYields ? Math.round(ratio * 10_000) / 100 : ratio;
  return {
    maxAge: 1,
    priceHint: n(2),
    previousClose: n(inQuoted(c, c.previousClose)),
    open: n(inQuoted(c, c.previousClose)),
    dayLow: n(inQuoted(c, Math.min(c.price, c.previousClose))),
    dayHigh: n(inQuoted(c, Math.max(c.price, c.previousClose))),
    regularMarketPreviousClose: n(inQuoted(c, c.previousClose)),
    volume: n(1_250_000),
    averageVolume: n(1_400_000),
    ...(fund
      ? {
          yield: n(dividendYield ?? 0),
          totalAssets: n(Math.round(c.price * c.sharesOutstanding)),
          navPrice: n(inQuoted(c, c.price)),
        }
      : {
          marketCap: n(Math.round(c.price * c.sharesOutstanding)),
          beta: n(c.beta),
          trailingPE: n(pe ?? (eps > 0 ? Math.round((c.price / eps) * 100) / 100 : null)),
          forwardPE: n(Math.round((c.price / (eps * 1.08)) * 100) / 100),
          priceToSalesTrailing12Months: n(r4((c.price * c.sharesOutstanding) / (c.ttm.revenue * c.quoteFx))),
          dividendRate: n(c.dividendRate || null),
          dividendYield: n(dividendYield),
          payoutRatio: n(eps > 0 ? r4(c.dividendRate / eps) : 0),
          fiveYearAvgDividendYield: n(
            dividendYield === null ? null : Math.round(dividendYield * 100 * 0.9 * 100) / 100,
          ),
          trailingAnnualDividendRate: n(c.dividendRate),
          trailingAnnualDividendYield: n(dividendYield ?? 0),
          exDividendDate: c.lastDividend ? epoch(c.lastDividend.date) : undefined,
        }),
    fiftyTwoWeekLow: n(inQuoted(c, c.fiftyTwoWeekLow)),
    fiftyTwoWeekHigh: n(inQuoted(c, c.fiftyTwoWeekHigh)),
    fiftyDayAverage: n(inQuoted(c, c.fiftyDayAverage)),
    twoHundredDayAverage: n(inQuoted(c, c.twoHundredDayAverage)),
    currency: c.sym.currency,
    fromCurrency: null,
    toCurrency: null,
    lastMarket: null,
    algorithm: null,
    tradeable: false,
  };
}

function keyStatistics(c: SimCompany, n: Scalar) {
  const t = c.ttm;
  const last = c.quarterly.at(-1) as SimPeriod;
  const yearAgo = c.quarterly.at(-5) as SimPeriod;
  const marketCap = c.price * c.sharesOutstanding;
  // In the trading currency, as the market capitalisation (the statements' in the reporting one).
  const fx = c.quoteFx;
  const ev = Math.round(marketCap + (last.totalDebt - last.cash) * fx);
  const eps = t.dilutedEps * fx;
  if (c.sym.quoteType === "ETF") {
    return {
      maxAge: 1,
      priceHint: n(2),
      lastSplitFactor: null,
      category: "Large Blend",
      fundFamily: c.seed.name.split(" ")[0] ?? null,
      legalType: "Exchange Traded Fund",
      totalAssets: n(Math.round(marketCap)),
      yield: n(c.dividendRate > 0 ? r4(c.dividendRate / c.price) : 0),
      fundInceptionDate: epoch("2010-05-19"),
      beta3Year: n(1),
      ytdReturn: n(0.1412),
    };
  }
  return {
    maxAge: 1,
    priceHint: n(2),
    category: null,
    fundFamily: null,
    legalType: null,
    lastSplitFactor: c.split ? `${c.split.numerator}:${c.split.denominator}` : null,
    ...(c.split ? { lastSplitDate: epoch(c.split.date) } : {}),
    enterpriseValue: n(ev),
    forwardPE: n(Math.round((c.price / (eps * 1.08)) * 100) / 100),
    profitMargins: n(r4(t.netIncome / t.revenue)),
    floatShares: n(Math.round(c.sharesOutstanding * 0.985)),
    sharesOutstanding: n(c.sharesOutstanding),
    sharesShort: n(Math.round(c.sharesOutstanding * 0.008)),
    shortRatio: n(1.84),
    shortPercentOfFloat: n(0.0081),
    heldPercentInsiders: n(0.0171),
    heldPercentInstitutions: n(0.6312),
    beta: n(c.beta),
    bookValue: n(Math.round((last.equity / c.sharesOutstanding) * 1000) / 1000),
    priceToBook: n(Math.round((c.price / ((last.equity / c.sharesOutstanding) * fx)) * 100) / 100),
    lastFiscalYearEnd: epoch((c.annual.at(-1) as SimPeriod).end),
    nextFiscalYearEnd: epoch((c.annual.at(-1) as SimPeriod).end) + 365 * 86400,
    mostRecentQuarter: epoch(last.end),
    earningsQuarterlyGrowth: n(r4(last.netIncome / yearAgo.netIncome - 1)),
    netIncomeToCommon: n(t.netIncome),
    trailingEps: n(fx === 1 ? t.dilutedEps : Math.round(eps * 100) / 100),
    forwardEps: n(Math.round(eps * 1.08 * 100) / 100),
    pegRatio: n(Math.round((c.price / eps / 12) * 100) / 100),
    enterpriseToRevenue: n(Math.round((ev / (t.revenue * fx)) * 1000) / 1000),
    enterpriseToEbitda: n(Math.round((ev / (t.ebitda * fx)) * 1000) / 1000),
    "52WeekChange": n(r4(c.price / c.fiftyTwoWeekLow - 1)),
    lastDividendValue: n(c.lastDividend?.amount ?? null),
    lastDividendDate: c.lastDividend ? epoch(c.lastDividend.date) : undefined,
  };
}

function financialData(c: SimCompany, n: Scalar) {
  const t = c.ttm;
  const last = c.quarterly.at(-1) as SimPeriod;
  const yearAgo = c.quarterly.at(-5) as SimPeriod;
  const a = c.analysts;
  const count = a.strongBuy + a.buy + a.hold + a.sell + a.strongSell;
  const mean = (a.strongBuy * 1 + a.buy * 2 + a.hold * 3 + a.sell * 4 + a.strongSell * 5) / count;
  return {
    maxAge: 86400,
    currentPrice: n(inQuoted(c, c.price)),
    targetHighPrice: n(inQuoted(c, Math.round(c.targetMean * 1.25 * 100) / 100)),
    targetLowPrice: n(inQuoted(c, Math.round(c.targetMean * 0.75 * 100) / 100)),
    targetMeanPrice: n(inQuoted(c, c.targetMean)),
    targetMedianPrice: n(c.targetMean),
    recommendationMean: n(Math.round(mean * 100) / 100),
    recommendationKey: mean < 1.5 ? "strong_buy" : mean < 2.5 ? "buy" : mean < 3.5 ? "hold" : "sell",
    numberOfAnalystOpinions: n(count),
    totalCash: n(last.cash),
    totalCashPerShare: n(Math.round((last.cash / c.sharesOutstanding) * 1000) / 1000),
    ebitda: n(t.ebitda),
    totalDebt: n(last.totalDebt),
    quickRatio: n(0.92),
    currentRatio: n(1.21),
    totalRevenue: n(t.revenue),
    debtToEquity: n(Math.round((last.totalDebt / last.equity) * 100 * 1000) / 1000),
    revenuePerShare: n(Math.round((t.revenue / c.sharesOutstanding) * 1000) / 1000),
    returnOnAssets: n(r4(t.netIncome / last.totalAssets)),
    returnOnEquity: n(r4(t.netIncome / last.equity)),
    grossProfits: n(t.grossProfit),
    freeCashflow: n(t.freeCashFlow),
    operatingCashflow: n(t.operatingCashFlow),
    earningsGrowth: n(r4(last.netIncome / yearAgo.netIncome - 1)),
    revenueGrowth: n(r4(last.revenue / yearAgo.revenue - 1)),
    grossMargins: n(r4(t.grossProfit / t.revenue)),
    ebitdaMargins: n(r4(t.ebitda / t.revenue)),
    operatingMargins: n(r4(t.operatingIncome / t.revenue)),
    profitMargins: n(r4(t.netIncome / t.revenue)),
    financialCurrency: c.financialCurrency,
  };
}

/** A fund's profile is its description alone (recorded answers: no address, sector or officers). */
function fundAssetProfile(c: SimCompany) {
  return {
    maxAge: 86400,
    companyOfficers: [],
    executiveTeam: [],
    longBusinessSummary: `${c.seed.name} seeks to track the performance of its index by holding its constituents in their index weights.`,
  };
}

function assetProfile(c: SimCompany) {
  const place = ADDRESSES[c.seed.country] ?? ADDRESSES.US;
  return {
    maxAge: 86400,
    address1: place?.address1,
    city: place?.city,
    zip: place?.zip,
    country: place?.country,
    phone: "+1 555 0100",
    website: website(c),
    industry: c.seed.industry ?? undefined,
    industryKey: c.seed.industry?.toLowerCase().replace(/\W+/g, "-"),
    industryDisp: c.seed.industry ?? undefined,
    sector: c.seed.sector ?? undefined,
    sectorKey: c.seed.sector?.toLowerCase().replace(/\W+/g, "-"),
    sectorDisp: c.seed.sector ?? undefined,
    longBusinessSummary: `${c.seed.name} designs, makes and sells products and services in the ${c.seed.industry ?? "its"} industry.`,
    fullTimeEmployees: 10_000 + (c.sharesOutstanding % 150_000),
    companyOfficers: [
      {
        maxAge: 1,
        name: "Alex Martin",
        age: 58,
        title: "Chief Executive Officer",
        yearBorn: 1968,
        fiscalYear: 2025,
        totalPay: boxed(15_200_000),
        exercisedValue: boxed(0),
        unexercisedValue: boxed(0),
      },
    ],
    auditRisk: 3,
    boardRisk: 5,
    compensationRisk: 4,
    shareHolderRightsRisk: 2,
    overallRisk: 3,
    governanceEpochDate: epoch("2026-11-01"),
    compensationAsOfEpochDate: epoch("2025-12-31"),
  };
}

function earningsHistory(c: SimCompany) {
  return {
    maxAge: 86400,
    defaultMethodology: "gaap",
    history: c.earnings.map((e, i) => ({
      maxAge: 1,
      epsActual: boxed(e.actual),
      epsEstimate: boxed(e.estimate),
      epsDifference: boxed(Math.round((e.actual - e.estimate) * 100) / 100),
      surprisePercent: boxedPct(r4((e.actual - e.estimate) / e.estimate)),
      quarter: boxedDate(e.quarterEnd),
      currency: c.financialCurrency,
      period: `-${4 - i}q`,
    })),
  };
}

function nextEnds(c: SimCompany): { q0: string; q1: string; y0: string; y1: string } {
  const lastQ = (c.quarterly.at(-1) as SimPeriod).end;
  const addMonths = (day: string, m: number) => {
    const d = new Date(`${day}T00:00:00Z`);
    return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + m + 1, 0)).toISOString().slice(0, 10);
  };
  const lastY = (c.annual.at(-1) as SimPeriod).end;
  return { q0: addMonths(lastQ, 3), q1: addMonths(lastQ, 6), y0: addMonths(lastY, 12), y1: addMonths(lastY, 24) };
}

function earningsTrend(c: SimCompany) {
  const q = c.quarterly.at(-1) as SimPeriod;
  const y = c.annual.at(-1) as SimPeriod;
  const ends = nextEnds(c);
  const row = (period: string, endDate: string, base: SimPeriod, growth: number, analysts: number) => {
    const eps = Math.round(base.dilutedEps * (1 + growth) * 100) / 100;
    return {
      maxAge: 1,
      period,
      endDate,
      growth: boxedPct(growth),
      earningsEstimate: {
        avg: boxed(eps),
        low: boxed(Math.round(eps * 0.9 * 100) / 100),
        high: boxed(Math.round(eps * 1.1 * 100) / 100),
        yearAgoEps: boxed(base.dilutedEps),
        numberOfAnalysts: boxed(analysts),
        growth: boxedPct(growth),
      },
      revenueEstimate: {
        avg: boxed(Math.round(base.revenue * (1 + growth / 2))),
        low: boxed(Math.round(base.revenue * (1 + growth / 2) * 0.95)),
        high: boxed(Math.round(base.revenue * (1 + growth / 2) * 1.05)),
        numberOfAnalysts: boxed(analysts),
        yearAgoRevenue: boxed(base.revenue),
        growth: boxedPct(growth / 2),
      },
      epsTrend: {
        current: boxed(eps),
        "7daysAgo": boxed(eps),
        "30daysAgo": boxed(Math.round(eps * 0.99 * 100) / 100),
        "60daysAgo": boxed(Math.round(eps * 0.98 * 100) / 100),
        "90daysAgo": boxed(Math.round(eps * 0.97 * 100) / 100),
      },
      epsRevisions: {
        upLast7days: boxed(1),
        upLast30days: boxed(3),
        downLast30days: boxed(1),
        downLast90days: {},
      },
    };
  };
  return {
    maxAge: 1,
    defaultMethodology: "gaap",
    trend: [
      row("0q", ends.q0, q, 0.06, 24),
      row("+1q", ends.q1, q, 0.08, 22),
      row("0y", ends.y0, y, 0.07, 38),
      row("+1y", ends.y1, y, 0.15, 38),
    ],
  };
}

function recommendationTrend(c: SimCompany) {
  const a = c.analysts;
  return {
    maxAge: 86400,
    trend: ["0m", "-1m", "-2m", "-3m"].map((period, i) => ({
      period,
      strongBuy: Math.max(0, a.strongBuy - i),
      buy: a.buy,
      hold: a.hold + i,
      sell: a.sell,
      strongSell: a.strongSell,
    })),
  };
}

function holders(n: Scalar) {
  return {
    maxAge: 1,
    insidersPercentHeld: n(0.0171),
    institutionsPercentHeld: n(0.6312),
    institutionsFloatPercentHeld: n(0.6421),
    institutionsCount: n(4210),
  };
}

const INSTITUTIONS = ["Vanguard Group Inc", "Blackrock Inc.", "State Street Corporation", "Geode Capital Management"];
const FUNDS = [
  "Vanguard Total Stock Market Index Fund",
  "Vanguard 500 Index Fund",
  "SPDR S&P 500 ETF Trust",
  "iShares Core S&P 500 ETF",
];

/** The largest holders (institutions, or funds) as the provider lists them: shares held falling from `top`. */
function ownership(c: SimCompany, names: readonly string[], top: number, step: number) {
  return {
    maxAge: 1,
    ownershipList: names.map((organization, i) => {
      const pct = r4(top - i * step);
      const position = Math.round(c.sharesOutstanding * pct);
      return {
        maxAge: 1,
        reportDate: boxedDate("2026-09-30"),
        organization,
        pctHeld: boxedPct(pct),
        position: boxed(position),
        value: boxed(Math.round(position * c.price)),
        pctChange: boxedPct(r4(0.012 - i * 0.007)),
      };
    }),
  };
}

/** Days from a quarter's end to its report: each company its own habit, three to six weeks. */
function reportLag(c: SimCompany): number {
  let h = 0;
  for (const ch of c.sym.symbol) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return 20 + (h % 21);
}

/**
 * The coming report as the provider announces it: a range of days while it is more than three
 * weeks off (`isEarningsDateEstimate`), the day itself (after the close) once the company has set it;
 * `earningsCallDate` is the call of the last quarter reported, as in the recorded answers.
 */
function calendarEvents(c: SimCompany, n: Scalar) {
  const lag = reportLag(c) * 86400;
  const report = epoch(nextEnds(c).q0) + lag;
  const lastCall = epoch((c.quarterly.at(-1) as SimPeriod).end) + lag + 21.5 * 3600;
  const estimated = report - epoch(FUNDAMENTALS_AS_OF) > 21 * 86400;
  return {
    maxAge: 1,
    earnings: {
      earningsDate: estimated ? [report - 2 * 86400 + 39_540, report + 3 * 86400 + 43_200] : [report + 21 * 3600],
      earningsCallDate: [lastCall],
      isEarningsDateEstimate: estimated,
      earningsAverage: n(Math.round(c.ttm.dilutedEps * 0.27 * 100) / 100),
      earningsLow: n(Math.round(c.ttm.dilutedEps * 0.24 * 100) / 100),
      earningsHigh: n(Math.round(c.ttm.dilutedEps * 0.3 * 100) / 100),
      revenueAverage: n(Math.round(c.ttm.revenue * 0.26)),
      revenueLow: n(Math.round(c.ttm.revenue * 0.24)),
      revenueHigh: n(Math.round(c.ttm.revenue * 0.28)),
    },
    ...(c.lastDividend
      ? { exDividendDate: epoch(c.lastDividend.date), dividendDate: epoch(c.lastDividend.date) + 14 * 86400 }
      : {}),
  };
}

/** Items the income rows still name, without a value. */
const EMPTIED_INCOME_ITEMS = [
  "costOfRevenue",
  "grossProfit",
  "researchDevelopment",
  "sellingGeneralAdministrative",
  "nonRecurring",
  "otherOperatingExpenses",
  "totalOperatingExpenses",
  "operatingIncome",
  "totalOtherIncomeExpenseNet",
  "ebit",
  "interestExpense",
  "incomeBeforeTax",
  "incomeTaxExpense",
  "minorityInterest",
  "netIncomeFromContinuingOps",
  "discontinuedOperations",
  "extraordinaryItems",
  "effectOfAccountingCharges",
  "otherItems",
  "netIncomeApplicableToCommonShares",
];

/** What the statement modules still carry: revenue and net income in income rows, the date alone elsewhere. */
function nearEmptyStatements(c: SimCompany) {
  const years = [...c.annual].reverse().slice(0, 4);
  return {
    incomeStatementHistory: {
      maxAge: 86400,
      incomeStatementHistory: years.map((p) => ({
        maxAge: 1,
        endDate: boxedDate(p.end),
        totalRevenue: boxed(p.revenue),
        netIncome: boxed(p.netIncome),
        ...Object.fromEntries(
          EMPTIED_INCOME_ITEMS.map((k) => [k, k === "costOfRevenue" ? { raw: 0, fmt: null, longFmt: "0" } : {}]),
        ),
      })),
    },
    balanceSheetHistory: {
      maxAge: 86400,
      balanceSheetStatements: years.map((p) => ({ maxAge: 1, endDate: boxedDate(p.end) })),
    },
    cashflowStatementHistory: {
      maxAge: 86400,
      cashflowStatements: years.map((p) => ({ maxAge: 1, endDate: boxedDate(p.end), netIncome: boxed(p.netIncome) })),
    },
  };
}

function fundProfile(c: SimCompany, n: Scalar) {
  return {
    maxAge: 1,
    family: c.seed.name.split(" ")[0] ?? null,
    categoryName: "Large Blend",
    legalType: "Exchange Traded Fund",
    managementInfo: { managerName: null, managerBio: null },
    feesExpensesInvestment: {
      annualReportExpenseRatio: n(0.0007),
      totalNetAssets: n(512_000),
      projectionValues: {},
    },
    feesExpensesInvestmentCat: { annualReportExpenseRatio: n(0.0089), projectionValuesCat: {} },
    styleBoxUrl: "https://s.yimg.com/lq/i/fi/3_0stylelargeeq2.gif",
    brokerages: [],
  };
}

/** The fund modules are plain numbers with formatted=false, in their lists too (recorded answers). */
function topHoldings(n: Scalar) {
  return {
    maxAge: 1,
    cashPosition: n(0.0012),
    stockPosition: n(0.9988),
    bondPosition: n(0),
    otherPosition: n(0),
    preferredPosition: n(0),
    convertiblePosition: n(0),
    holdings: FUND_HOLDINGS.map(([symbol, holdingName, w]) => ({ symbol, holdingName, holdingPercent: n(w) })),
    equityHoldings: {
      priceToEarnings: n(26.41),
      priceToBook: n(4.92),
      priceToSales: n(3.11),
      priceToCashflow: n(18.7),
    },
    bondHoldings: {},
    bondRatings: [],
    sectorWeightings: SECTOR_WEIGHTS.map(([k, w]) => ({ [k]: n(w) })),
  };
}

function quoteTypeModule(c: SimCompany) {
  return {
    exchange: c.sym.yahooExchange,
    quoteType: c.sym.quoteType,
    symbol: c.sym.symbol,
    underlyingSymbol: c.sym.symbol,
    shortName: c.sym.name.slice(0, 24),
    longName: c.sym.name,
    firstTradeDateEpochUtc: epoch("2014-01-02"),
    timeZoneFullName: "America/New_York",
    timeZoneShortName: c.sym.timezone,
    uuid: `sim-${c.sym.isin}`,
    messageBoardId: `finmb_${c.sym.isin}`,
    gmtOffSetMilliseconds: c.sym.gmtoffset * 1000,
    maxAge: 1,
  };
}

function esgScores(c: SimCompany) {
  return {
    maxAge: 86400,
    totalEsg: boxed(17.2),
    environmentScore: boxed(0.6),
    socialScore: boxed(7.4),
    governanceScore: boxed(9.2),
    ratingYear: 2026,
    ratingMonth: 9,
    highestControversy: 3,
    peerCount: 55,
    esgPerformance: "UNDER_PERF",
    peerGroup: c.seed.industry ?? "Technology Hardware",
    relatedControversy: [],
    percentile: boxed(12.5),
    adult: false,
    alcoholic: false,
    animalTesting: false,
    catholic: false,
    controversialWeapons: false,
    smallArms: false,
    furLeather: false,
    gambling: false,
    gmo: false,
    militaryContract: false,
    nuclear: false,
    pesticides: false,
    palmOil: false,
    coal: false,
    tobacco: false,
  };
}

export interface SummaryOptions {
  formatted: boolean;
  /** Sends a trailing P/E no company has (the validation layer must refuse it). */
  absurdPe?: boolean;
  /** Sends the dividend yields in percent where the provider documents fractions (the canary must notice). */
  percentScaled?: boolean;
  /** Sends the trailing P/E as text and earnings rows without their quarter (a changed format). */
  drift?: boolean;
}

/**
 * The quoteSummary result of the requested modules: inapplicable modules are absent (a fund has no
 * statements, ESG scores are published for US shares only); null when none applies.
 */
export function quoteSummaryResult(
  c: SimCompany,
  modules: readonly string[],
  opts: SummaryOptions,
): Record<string, unknown> | null {
  const n: Scalar = opts.formatted ? (x) => boxed(x) : (x) => (x === null ? undefined : x);
  const fund = c.sym.quoteType === "ETF";
  const served: readonly string[] = fund
    ? FUND_MODULES
    : EQUITY_MODULES.filter((m) => m !== "esgScores" || c.seed.country === "US");
  const build: Record<string, () => unknown> = {
    price: () => priceModule(c, n),
    summaryDetail: () =>
      summaryDetail(c, n, { pe: opts.absurdPe ? 48_213.7 : null, percentYields: opts.percentScaled === true }),
    defaultKeyStatistics: () => keyStatistics(c, n),
    financialData: () => financialData(c, n),
    assetProfile: () => (fund ? fundAssetProfile(c) : assetProfile(c)),
    earningsHistory: () => earningsHistory(c),
    earningsTrend: () => earningsTrend(c),
    recommendationTrend: () => recommendationTrend(c),
    majorHoldersBreakdown: () => holders(n),
    institutionOwnership: () => ownership(c, INSTITUTIONS, 0.09, 0.018),
    fundOwnership: () => ownership(c, FUNDS, 0.0305, 0.004),
    calendarEvents: () => calendarEvents(c, n),
    incomeStatementHistory: () => nearEmptyStatements(c).incomeStatementHistory,
    balanceSheetHistory: () => nearEmptyStatements(c).balanceSheetHistory,
    cashflowStatementHistory: () => nearEmptyStatements(c).cashflowStatementHistory,
    quoteType: () => quoteTypeModule(c),
    esgScores: () => esgScores(c),
    fundProfile: () => fundProfile(c, n),
    topHoldings: () => topHoldings(n),
  };
  const out: Record<string, unknown> = {};
  for (const m of modules) {
    const make = build[m];
    if (served.includes(m) && make) out[m] = JSON.parse(JSON.stringify(make()));
  }
  if (opts.drift) driftFormat(out);
  return Object.keys(out).length ? out : null;
}

/** The drift fault: one field in another type, one field that names rows gone. */
function driftFormat(out: Record<string, unknown>): void {
  const detail = out.summaryDetail as Record<string, unknown> | undefined;
  if (detail && typeof detail.trailingPE === "number") detail.trailingPE = `${detail.trailingPE}x`;
  const history = (out.earningsHistory as { history?: Record<string, unknown>[] } | undefined)?.history;
  for (const row of history ?? []) delete row.quarter;
}

/** fundamentals-timeseries keys the simulator knows, and the period field each reads. */
const SERIES: Record<string, keyof SimPeriod> = {
  TotalRevenue: "revenue",
  CostOfRevenue: "costOfRevenue",
  GrossProfit: "grossProfit",
  ResearchAndDevelopment: "researchAndDevelopment",
  SellingGeneralAndAdministration: "sellingGeneralAndAdministration",
  OperatingExpense: "operatingExpense",
  OperatingIncome: "operatingIncome",
  EBIT: "operatingIncome",
  EBITDA: "ebitda",
  ReconciledDepreciation: "depreciation",
  InterestExpense: "interestExpense",
  PretaxIncome: "pretaxIncome",
  TaxProvision: "taxProvision",
  NetIncome: "netIncome",
  NetIncomeCommonStockholders: "netIncome",
  DilutedEPS: "dilutedEps",
  BasicEPS: "basicEps",
  DilutedAverageShares: "dilutedShares",
  BasicAverageShares: "dilutedShares",
  TotalAssets: "totalAssets",
  TotalLiabilitiesNetMinorityInterest: "totalLiabilities",
  StockholdersEquity: "equity",
  CashAndCashEquivalents: "cash",
  TotalDebt: "totalDebt",
  NetDebt: "netDebt",
  OrdinarySharesNumber: "ordinaryShares",
  OperatingCashFlow: "operatingCashFlow",
  CapitalExpenditure: "capitalExpenditure",
  FreeCashFlow: "freeCashFlow",
  CashDividendsPaid: "dividendsPaid",
  DepreciationAndAmortization: "depreciation",
};
/** Balance-sheet items have no trailing value. */
const STOCKS = new Set([
  "TotalAssets",
  "TotalLiabilitiesNetMinorityInterest",
  "StockholdersEquity",
  "CashAndCashEquivalents",
  "TotalDebt",
  "NetDebt",
  "OrdinarySharesNumber",
]);

let dataId = 20_000;

/**
 * The timeseries answer: one result per requested type, in the order asked (the provider's order
 * is arbitrary; callers must not rely on it), `meta` first, then `timestamp`, then the series; a
 * type without data carries only `meta`. Periods outside [period1, period2) are left out.
 */
export function timeseriesResult(
  c: SimCompany | null,
  symbol: string,
  types: readonly string[],
  p1: number,
  p2: number,
) {
  const result = types.map((type) => {
    const meta = { symbol: [symbol], type: [type] };
    const m = /^(annual|quarterly|trailing)(\w+)$/.exec(type);
    const field = m?.[2] ? SERIES[m[2]] : undefined;
    if (!c || c.sym.quoteType === "ETF" || !m || !field || (m[1] === "trailing" && STOCKS.has(m[2] ?? "")))
      return { meta };
    const periods = m[1] === "annual" ? c.annual : m[1] === "quarterly" ? c.quarterly : [c.ttm];
    const inWindow = periods.filter((p) => epoch(p.end) >= p1 && epoch(p.end) < p2);
    if (inWindow.length === 0) return { meta };
    return {
      meta,
      timestamp: inWindow.map((p) => epoch(p.end)),
      [type]: inWindow.map((p) => ({
        dataId: dataId++,
        asOfDate: p.end,
        periodType: m[1] === "annual" ? "12M" : m[1] === "quarterly" ? "3M" : "TTM",
        currencyCode: c.financialCurrency,
        // The timeseries boxes carry no longFmt (recorded answers: {raw, fmt}).
        reportedValue: { raw: p[field] as number, fmt: fmtNumber(p[field] as number) },
      })),
    };
  });
  return { timeseries: { result, error: null } };
}
