/**
 * The fundamentals figures the service knows, each with what it is and the bounds a real company's
 * value stays within: the one table the validation layer reads. Bounds are wide on purpose: they
 * refuse what no company has (a P/E of 48,000, a 40 % dividend yield), not what is merely unusual.
 *
 * Kinds: `ratio` is a fraction (0.0032 = 0.32 %) and may arrive percent-scaled; `multiple` a plain
 * multiple (P/E, beta); `amount` a money amount; `per_share` an amount per share; `count` a number
 * of shares or people. Which currency each money figure is in (the trading or the reporting one)
 * is figure-currency.ts's to say.
 */
export type FieldKind = "ratio" | "multiple" | "amount" | "per_share" | "count";

export interface FieldRule {
  kind: FieldKind;
  min: number;
  max: number;
}

const ratio = (min: number, max: number): FieldRule => ({ kind: "ratio", min, max });
const multiple = (min: number, max: number): FieldRule => ({ kind: "multiple", min, max });
const amount = (min = -1e14, max = 1e14): FieldRule => ({ kind: "amount", min, max });
const perShare = (min = -1e5, max = 1e6): FieldRule => ({ kind: "per_share", min, max });
const count = (min = 0, max = 1e13): FieldRule => ({ kind: "count", min, max });

export const FIELD_RULES: Readonly<Record<string, FieldRule>> = {
  market_cap: amount(0, 1e14),
  enterprise_value: amount(),
  pe_ratio: multiple(0, 1500),
  forward_pe: multiple(0, 1500),
  peg_ratio: multiple(-100, 100),
  eps_ttm: perShare(),
  eps_forward: perShare(),
  eps_estimate_current_year: perShare(),
  eps_estimate_next_year: perShare(),
  /** The forward annual rate (the provider's dividendRate); the trailing one is what was paid in the last twelve months. */
  dividend_rate: perShare(0),
  trailing_dividend_rate: perShare(0),
  dividend_yield: ratio(0, 0.3),
  payout_ratio: ratio(0, 5),
  profit_margin: ratio(-10, 1),
  operating_margin: ratio(-10, 1),
  gross_margin: ratio(-10, 1),
  ebitda_margin: ratio(-10, 1),
  roe: ratio(-10, 10),
  roa: ratio(-2, 2),
  revenue_ttm: amount(0),
  revenue_per_share: perShare(0),
  gross_profit_ttm: amount(),
  ebitda: amount(),
  net_income_ttm: amount(),
  free_cash_flow_ttm: amount(),
  operating_cash_flow_ttm: amount(),
  total_cash: amount(0),
  total_debt: amount(0),
  debt_to_equity: ratio(-50, 50),
  current_ratio: multiple(0, 100),
  quick_ratio: multiple(0, 100),
  quarterly_revenue_growth: ratio(-1, 100),
  quarterly_earnings_growth: ratio(-1000, 1000),
  beta: multiple(-5, 10),
  book_value_per_share: perShare(),
  price_to_book: multiple(-1000, 10_000),
  price_to_sales: multiple(0, 10_000),
  ev_to_revenue: multiple(-1000, 10_000),
  ev_to_ebitda: multiple(-10_000, 10_000),
  shares_outstanding: count(1),
  shares_float: count(),
  shares_short: count(),
  short_ratio: multiple(0, 1000),
  short_percent_float: ratio(0, 1),
  percent_insiders: ratio(0, 1),
  percent_institutions: ratio(0, 1.5),
  fifty_two_week_high: perShare(0),
  fifty_two_week_low: perShare(0),
  fifty_day_average: perShare(0),
  two_hundred_day_average: perShare(0),
  target_price: perShare(0),
  price: perShare(0),
  expense_ratio: ratio(0, 0.1),
  fund_yield: ratio(0, 0.3),
  total_assets: amount(0),
  rating: multiple(1, 5),
  analysts: count(0, 1000),
  // The rows of the deep enrichment (domain/fundamentals/validate-records): earnings, trends, fund weights.
  "earnings.eps_actual": perShare(),
  "earnings.eps_estimate": perShare(),
  "earnings.eps_difference": perShare(),
  /** Percent (EODHD's unit): a beat of 4.5 % is 4.5; near-zero estimates make it large. */
  "earnings.surprise_percent": multiple(-100_000, 100_000),
  "trend.growth": ratio(-100, 100),
  "trend.eps_avg": perShare(),
  "trend.eps_low": perShare(),
  "trend.eps_high": perShare(),
  "trend.revenue_avg": amount(0),
  "trend.analysts": count(0, 1000),
  "fund.holding_weight": ratio(0, 1),
  "fund.sector_weight": ratio(0, 1),
  /** Leveraged and short funds hold more than 100 % of their assets in shares, or less than none. */
  "fund.asset_class": ratio(-2, 3),
};

/**
 * The rule of a statement line (`statements.income.annual.diluted_eps`): per-share lines, share
 * counts, and every other line an amount in the reporting currency. Lines are open-ended (the
 * provider reports ~200 names), so they are ruled by what their name says.
 */
export function statementLineRule(line: string): FieldRule {
  if (/(^|_)eps($|_)/.test(line) || line.endsWith("_per_share")) return perShare();
  if (/(^|_)shares?(_|$)|share_issued/.test(line)) return count();
  return amount();
}

/** The rule of any field the validation layer sees: the table's, else a statement line's by its name. */
export function ruleOf(field: string): FieldRule | undefined {
  const rule = FIELD_RULES[field];
  if (rule) return rule;
  const line = /^statements\.[a-z]+\.[a-z]+\.(.+)$/.exec(field)?.[1];
  return line ? statementLineRule(line) : undefined;
}

/**
 * How far a value may stray from a reference before it is an outlier, as a factor either way:
 * from another provider's value of the same field today, and from the instrument's own stored
 * value of an earlier day (figures move after results, so history allows more).
 */
export const PEER_TOLERANCE = 1.5;
export const HISTORY_TOLERANCE = 4;

/** The three quantities scraped pages may supply (spec /fundamental rule 1c). */
export const SCRAPED_FIELDS = ["pe_ratio", "eps_ttm", "dividend_yield"] as const;
export type ScrapedField = (typeof SCRAPED_FIELDS)[number];
