import { type Dividend, dividendsByYear, type Split, splitRatio } from "../../corporate-actions";
import { type FigureTable, type Placement, place, type Section, type Sources } from "./place";

/**
 * The snapshot sections (Highlights, Valuation, SharesStats, Technicals, SplitsDividends,
 * AnalystRatings): where each service figure goes.
 */

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

/** The snapshot sections and where each of their figures comes from (figure-currency reads them). */
export const SNAPSHOT_PLACEMENTS: Readonly<Record<string, readonly Placement[]>> = {
  Highlights: HIGHLIGHTS,
  Valuation: VALUATION,
  SharesStats: SHARES_STATS,
  Technicals: TECHNICALS,
  SplitsDividends: SPLITS_DIVIDENDS,
  AnalystRatings: ANALYST_RATINGS,
};

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
