import type Decimal from "decimal.js";
import { DAY_MS } from "../instants";
import { clamp, Dec, dec, pct, rate } from "./numbers";

/**
 * What the valuation reads of the deep enrichment's stored figures (spec Valuation rule 2), turned
 * into the models' inputs. Pure: the service loads the rows, this decides what they mean.
 */

export interface AnnualRow {
  periodEnd: string;
  items: Record<string, number | null>;
}

export interface StoredFigures {
  /** The newest snapshot's highlights (snake_case, ratios as ratios). */
  highlights: Record<string, number | string | null>;
  /** Annual statements, newest first. */
  income: AnnualRow[];
  balance: AnnualRow[];
  cashflow: AnnualRow[];
  /** Analyst growth of the next fiscal year's EPS (the earnings trend's +1y), a ratio. */
  analystEpsGrowth: Decimal | null;
}

/** Growth bounds of each model's first stage: one input must not dominate the value (reference B.7). */
export const GROWTH_BOUNDS = {
  fcf: [new Dec("-0.05"), new Dec("0.15")],
  eps: [new Dec("-0.10"), new Dec("0.20")],
  ddm: [new Dec(0), new Dec("0.15")],
} as const;

const item = (row: AnnualRow | undefined, key: string): Decimal | null => (row ? dec(row.items[key]) : null);
const first = (...xs: (Decimal | null)[]): Decimal | null => xs.find((x) => x !== null) ?? null;

/** Free cash flow of a year: the stored figure, else operating cash flow less capital expenditure (either sign). */
function freeCashFlow(row: AnnualRow): Decimal | null {
  const fcf = item(row, "free_cash_flow");
  if (fcf !== null) return fcf;
  const ocf = item(row, "operating_cash_flow");
  const capex = item(row, "capital_expenditure");
  return ocf !== null && capex !== null ? ocf.minus(capex.abs()) : null;
}

export interface CashFlowBase {
  base: Decimal | null;
  years: { period_end: string; free_cash_flow: Decimal }[];
  warnings: string[];
}

/**
 * The average free cash flow of the last three fiscal years stored; a year among them without one
 * is left out with a warning (never replaced by an older year).
 */
export function fcfBase(cashflow: readonly AnnualRow[]): CashFlowBase {
  const years = cashflow
    .slice(0, 3)
    .map((r) => ({ period_end: r.periodEnd, free_cash_flow: freeCashFlow(r) }))
    .filter((y): y is { period_end: string; free_cash_flow: Decimal } => y.free_cash_flow !== null);
  if (years.length === 0) return { base: null, years, warnings: [] };
  const warnings =
    years.length < 3
      ? [`free cash flow of ${years.length} of the last three fiscal years stored: the average is over those`]
      : [];
  const total = years.reduce((a, y) => a.plus(y.free_cash_flow), new Dec(0));
  return { base: total.div(years.length).toDecimalPlaces(4), years, warnings };
}

/**
 * Compound annual growth from the oldest to the newest of `values` (newest first), counting the
 * years between their period ends; null unless both ends are positive and a year apart or more.
 */
export function compoundGrowth(values: readonly { periodEnd: string; value: Decimal | null }[]): Decimal | null {
  const known = values.filter((v): v is { periodEnd: string; value: Decimal } => v.value !== null);
  const newest = known[0];
  const oldest = known.at(-1);
  if (!newest || !oldest || newest === oldest || newest.value.lte(0) || oldest.value.lte(0)) return null;
  const years = Math.round(
    (Date.parse(`${newest.periodEnd}T00:00:00Z`) - Date.parse(`${oldest.periodEnd}T00:00:00Z`)) / (365.25 * DAY_MS),
  );
  if (years < 1) return null;
  return newest.value.div(oldest.value).pow(new Dec(1).div(years)).minus(1);
}

/** `g` within the model's bounds, rounded to the rate places; a warning when the bounds moved it. */
function bounded(model: keyof typeof GROWTH_BOUNDS, g: Decimal, what: string, warnings: string[]): Decimal {
  const [lo, hi] = GROWTH_BOUNDS[model];
  const r = rate(g);
  const b = clamp(r, lo, hi);
  if (!b.eq(r)) warnings.push(`${what} ${pct(r)} bounded to ${pct(b)}`);
  return b;
}

export interface GrowthEstimate {
  growth: Decimal;
  basis: string;
  warnings: string[];
}

/** First-stage growth of the fcf model: the caller's, else the free cash flow's compound growth over the stored years. */
export function fcfGrowth(f: StoredFigures, override: Decimal | undefined, fallback: Decimal): GrowthEstimate {
  if (override !== undefined) return { growth: rate(override), basis: "client_override", warnings: [] };
  const warnings: string[] = [];
  const g = compoundGrowth(f.cashflow.map((r) => ({ periodEnd: r.periodEnd, value: freeCashFlow(r) })));
  if (g === null) {
    warnings.push(`free cash flow growth unknown: the terminal growth ${pct(fallback)} used`);
    return { growth: rate(fallback), basis: "terminal_growth", warnings };
  }
  return { growth: bounded("fcf", g, "free cash flow growth", warnings), basis: "historical", warnings };
}

/**
 * First-stage growth of the eps model: the caller's, else the mean of the EPS's compound growth over
 * the stored years and the analysts' growth for the next fiscal year (whichever exist).
 */
export function epsGrowth(f: StoredFigures, override: Decimal | undefined, fallback: Decimal): GrowthEstimate {
  if (override !== undefined) return { growth: rate(override), basis: "client_override", warnings: [] };
  const warnings: string[] = [];
  const history = compoundGrowth(f.income.map((r) => ({ periodEnd: r.periodEnd, value: item(r, "diluted_eps") })));
  const known = [history, f.analystEpsGrowth].filter((g): g is Decimal => g !== null);
  if (known.length === 0) {
    warnings.push(`EPS growth unknown: the terminal growth ${pct(fallback)} used`);
    return { growth: rate(fallback), basis: "terminal_growth", warnings };
  }
  const mean = known.reduce((a, b) => a.plus(b), new Dec(0)).div(known.length);
  const basis = history && f.analystEpsGrowth ? "historical_and_analysts" : history ? "historical" : "analysts";
  return { growth: bounded("eps", mean, "EPS growth", warnings), basis, warnings };
}

/** Dividends per share of a year: dividends paid (either sign) over the shares at its end. */
function dividendPerShare(cash: AnnualRow, balance: readonly AnnualRow[]): Decimal | null {
  const paid = item(cash, "cash_dividends_paid");
  const shares = item(
    balance.find((b) => b.periodEnd === cash.periodEnd),
    "ordinary_shares_number",
  );
  return paid && shares?.gt(0) ? paid.abs().div(shares) : null;
}

/** First-stage growth of the ddm model: the caller's, else the dividend per share's compound growth over the stored years. */
export function dividendGrowth(f: StoredFigures, override: Decimal | undefined, fallback: Decimal): GrowthEstimate {
  if (override !== undefined) return { growth: rate(override), basis: "client_override", warnings: [] };
  const warnings: string[] = [];
  const g = compoundGrowth(f.cashflow.map((r) => ({ periodEnd: r.periodEnd, value: dividendPerShare(r, f.balance) })));
  if (g === null) {
    warnings.push(`dividend growth unknown: the terminal growth ${pct(fallback)} used`);
    return { growth: rate(fallback), basis: "terminal_growth", warnings };
  }
  return { growth: bounded("ddm", g, "dividend growth", warnings), basis: "historical", warnings };
}

/** The company's figures the valuation reads, each from the newest fiscal year or the highlights. */
export function companyFigures(f: StoredFigures) {
  const h = f.highlights;
  const income = f.income[0];
  const balance = f.balance[0];
  const totalDebt = first(item(balance, "total_debt"), dec(h.total_debt));
  // Cash and short-term investments where the provider gives them (reference B.2), else cash.
  const cash = first(
    item(balance, "cash_cash_equivalents_and_short_term_investments"),
    item(balance, "cash_and_cash_equivalents"),
    dec(h.total_cash),
  );
  const epsTtm = dec(h.eps_ttm);
  const eps = first(epsTtm, item(income, "diluted_eps"));
  // What was paid in the last twelve months is this year's dividend (D0); the provider's
  // dividend_rate is the forward one (already next year's), used only when the trailing is missing.
  const trailing = dec(h.trailing_dividend_rate);
  const forward = dec(h.dividend_rate);
  const dividend = trailing?.gt(0) ? trailing : forward;
  const payout = dec(h.payout_ratio) ?? (dividend && eps?.gt(0) ? dividend.div(eps) : null);
  return {
    fiscalYearEnd: income?.periodEnd ?? balance?.periodEnd ?? null,
    shares: first(dec(h.shares_outstanding), item(balance, "ordinary_shares_number")),
    marketCap: dec(h.market_cap),
    beta: dec(h.beta),
    totalDebt,
    cash,
    // Unknown debt weighs as 0 in the WACC (with a warning there): the same here.
    netDebt: totalDebt === null && cash === null ? null : (totalDebt ?? new Dec(0)).minus(cash ?? 0),
    equity: item(balance, "stockholders_equity"),
    ebitda: item(income, "ebitda"),
    ebit: first(item(income, "ebit"), item(income, "operating_income")),
    interestExpense: item(income, "interest_expense"),
    incomeTax: item(income, "tax_provision"),
    pretaxIncome: item(income, "pretax_income"),
    eps,
    /** Highlights' EPS are per share in the quote currency; the statements' in the reporting currency. */
    epsFromStatements: epsTtm === null && eps !== null,
    peRatio: dec(h.pe_ratio),
    dividend: dividend?.gt(0) ? dividend : null,
    dividendIsForward: !trailing?.gt(0) && Boolean(forward?.gt(0)),
    /** Bounded to [0, 1]: a payout above earnings cannot go on for N years. */
    payoutRatio: dividend?.gt(0) && payout ? clamp(rate(payout), 0, 1) : new Dec(0),
    targetPrice: dec(h.target_price),
  };
}
export type CompanyFigures = ReturnType<typeof companyFigures>;

/**
 * Solvency ratios of the newest fiscal year; a ratio whose denominator is not positive is null
 * (a negative book equity makes debt to equity meaningless, not negative).
 */
export function solvencyOf(c: CompanyFigures) {
  const ratio = (num: Decimal | null, den: Decimal | null) => (num && den?.gt(0) ? num.div(den) : null);
  const notes: string[] = [];
  if (c.equity?.lte(0))
    notes.push("book equity is not positive (buybacks or losses): debt to equity is not meaningful");
  if (c.ebitda?.lte(0)) notes.push("EBITDA is not positive: net debt to EBITDA is not meaningful");
  return {
    debt_to_equity_ratio: ratio(c.totalDebt, c.equity),
    net_debt_to_ebitda: ratio(c.netDebt, c.ebitda),
    interest_coverage_ratio: ratio(c.ebit, c.interestExpense?.abs() ?? null),
    total_debt: c.totalDebt,
    cash: c.cash,
    net_debt: c.netDebt,
    book_equity: c.equity,
    ebitda: c.ebitda,
    notes,
  };
}
