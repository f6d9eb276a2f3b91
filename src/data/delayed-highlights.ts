import type { Unit } from "../domain/fundamentals/validation";

/** The delayed provider's quoteSummary fields the highlights are read from (domain/fundamentals/delayed-figures). */

/**
 * Where each highlight comes from: [module, field] pairs in order of preference, and the unit the
 * provider documents (ratios are fractions in quoteSummary; debtToEquity is in percent).
 */
export const HIGHLIGHT_SOURCES: [field: string, sources: [string, string][], unit?: Unit][] = [
  [
    "market_cap",
    [
      ["price", "marketCap"],
      ["summaryDetail", "marketCap"],
    ],
  ],
  ["enterprise_value", [["defaultKeyStatistics", "enterpriseValue"]]],
  ["pe_ratio", [["summaryDetail", "trailingPE"]]],
  [
    "forward_pe",
    [
      ["summaryDetail", "forwardPE"],
      ["defaultKeyStatistics", "forwardPE"],
    ],
  ],
  ["peg_ratio", [["defaultKeyStatistics", "pegRatio"]]],
  ["eps_ttm", [["defaultKeyStatistics", "trailingEps"]]],
  ["eps_forward", [["defaultKeyStatistics", "forwardEps"]]],
  ["dividend_rate", [["summaryDetail", "dividendRate"]]],
  ["trailing_dividend_rate", [["summaryDetail", "trailingAnnualDividendRate"]]],
  ["dividend_yield", [["summaryDetail", "dividendYield"]]],
  ["payout_ratio", [["summaryDetail", "payoutRatio"]]],
  [
    "profit_margin",
    [
      ["financialData", "profitMargins"],
      ["defaultKeyStatistics", "profitMargins"],
    ],
  ],
  ["operating_margin", [["financialData", "operatingMargins"]]],
  ["gross_margin", [["financialData", "grossMargins"]]],
  ["ebitda_margin", [["financialData", "ebitdaMargins"]]],
  ["roe", [["financialData", "returnOnEquity"]]],
  ["roa", [["financialData", "returnOnAssets"]]],
  ["revenue_ttm", [["financialData", "totalRevenue"]]],
  ["revenue_per_share", [["financialData", "revenuePerShare"]]],
  ["gross_profit_ttm", [["financialData", "grossProfits"]]],
  ["ebitda", [["financialData", "ebitda"]]],
  ["net_income_ttm", [["defaultKeyStatistics", "netIncomeToCommon"]]],
  ["free_cash_flow_ttm", [["financialData", "freeCashflow"]]],
  ["operating_cash_flow_ttm", [["financialData", "operatingCashflow"]]],
  ["total_cash", [["financialData", "totalCash"]]],
  ["total_debt", [["financialData", "totalDebt"]]],
  ["debt_to_equity", [["financialData", "debtToEquity"]], "percent"],
  ["current_ratio", [["financialData", "currentRatio"]]],
  ["quick_ratio", [["financialData", "quickRatio"]]],
  ["quarterly_revenue_growth", [["financialData", "revenueGrowth"]]],
  ["quarterly_earnings_growth", [["defaultKeyStatistics", "earningsQuarterlyGrowth"]]],
  [
    "beta",
    [
      ["summaryDetail", "beta"],
      ["defaultKeyStatistics", "beta"],
    ],
  ],
  ["book_value_per_share", [["defaultKeyStatistics", "bookValue"]]],
  ["price_to_book", [["defaultKeyStatistics", "priceToBook"]]],
  ["price_to_sales", [["summaryDetail", "priceToSalesTrailing12Months"]]],
  ["ev_to_revenue", [["defaultKeyStatistics", "enterpriseToRevenue"]]],
  ["ev_to_ebitda", [["defaultKeyStatistics", "enterpriseToEbitda"]]],
  ["shares_outstanding", [["defaultKeyStatistics", "sharesOutstanding"]]],
  ["shares_float", [["defaultKeyStatistics", "floatShares"]]],
  ["shares_short", [["defaultKeyStatistics", "sharesShort"]]],
  ["short_ratio", [["defaultKeyStatistics", "shortRatio"]]],
  ["short_percent_float", [["defaultKeyStatistics", "shortPercentOfFloat"]]],
  [
    "percent_insiders",
    [
      ["defaultKeyStatistics", "heldPercentInsiders"],
      ["majorHoldersBreakdown", "insidersPercentHeld"],
    ],
  ],
  [
    "percent_institutions",
    [
      ["defaultKeyStatistics", "heldPercentInstitutions"],
      ["majorHoldersBreakdown", "institutionsPercentHeld"],
    ],
  ],
  ["fifty_two_week_high", [["summaryDetail", "fiftyTwoWeekHigh"]]],
  ["fifty_two_week_low", [["summaryDetail", "fiftyTwoWeekLow"]]],
  ["fifty_day_average", [["summaryDetail", "fiftyDayAverage"]]],
  ["two_hundred_day_average", [["summaryDetail", "twoHundredDayAverage"]]],
  ["target_price", [["financialData", "targetMeanPrice"]]],
  [
    "price",
    [
      ["price", "regularMarketPrice"],
      ["financialData", "currentPrice"],
    ],
  ],
  [
    "fund_yield",
    [
      ["summaryDetail", "yield"],
      ["defaultKeyStatistics", "yield"],
    ],
  ],
  [
    "total_assets",
    [
      ["summaryDetail", "totalAssets"],
      ["defaultKeyStatistics", "totalAssets"],
    ],
  ],
];

/** Highlight dates and labels (not validated: not numbers). */
export const HIGHLIGHT_TEXT: [field: string, module: string, key: string, kind: "date" | "text"][] = [
  ["most_recent_quarter", "defaultKeyStatistics", "mostRecentQuarter", "date"],
  ["last_fiscal_year_end", "defaultKeyStatistics", "lastFiscalYearEnd", "date"],
  ["ex_dividend_date", "summaryDetail", "exDividendDate", "date"],
  ["dividend_date", "calendarEvents", "dividendDate", "date"],
  ["last_split_factor", "defaultKeyStatistics", "lastSplitFactor", "text"],
  ["last_split_date", "defaultKeyStatistics", "lastSplitDate", "date"],
  ["last_dividend_date", "defaultKeyStatistics", "lastDividendDate", "date"],
  ["fund_inception_date", "defaultKeyStatistics", "fundInceptionDate", "date"],
];
