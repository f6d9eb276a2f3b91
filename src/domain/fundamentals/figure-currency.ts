import Decimal from "decimal.js";
import { currencyScale } from "../provider-symbols";

/**
 * Which currency each money figure of the fundamentals is in: the one place that says so. Pure.
 *
 * A company reports in one currency (its statements, and the provider's figures read from them:
 * revenue, EBITDA, cash, debt, book value per share, the analysts' EPS estimates) and trades in
 * another (the price, and what is computed from it: market capitalisation, enterprise value,
 * trailing EPS and the dividend per share as the quote shows them, the 52-week range and the
 * moving averages, the analysts' target). Alibaba reports in yuan and trades in New York in
 * dollars; most companies report and trade in one. The delayed provider quotes a London line in
 * pence: its price figures (the 52-week range, the moving averages) are in pence and its market
 * capitalisation in pounds, as a recorded answer shows (OCDO.L: 260.4 pence, 2.18 billion pounds);
 * the analysts' target comes with the current price (financialData) and is taken in its unit; EPS
 * and dividend are taken in the listing's currency, as the validation layer reads them (no
 * recording says otherwise).
 */

/** `trading`: the quote's currency; `reporting`: the statements' currency. */
export type CurrencyBasis = "trading" | "reporting";

/** Figures of the quote itself: in the unit the provider quotes the line in (pence for a pence line). */
const QUOTED = [
  "fifty_two_week_high",
  "fifty_two_week_low",
  "fifty_day_average",
  "two_hundred_day_average",
  "price",
  "target_price",
] as const;
const TRADING = [
  "eps_ttm",
  "eps_forward",
  "dividend_rate",
  "trailing_dividend_rate",
  "market_cap",
  "enterprise_value",
  "total_assets",
] as const;
const REPORTING = [
  "revenue_ttm",
  "revenue_per_share",
  "gross_profit_ttm",
  "ebitda",
  "net_income_ttm",
  "free_cash_flow_ttm",
  "operating_cash_flow_ttm",
  "total_cash",
  "total_debt",
  "book_value_per_share",
  "eps_estimate_current_quarter",
  "eps_estimate_next_quarter",
  "eps_estimate_current_year",
  "eps_estimate_next_year",
] as const;

const BASIS: ReadonlyMap<string, CurrencyBasis> = new Map([
  ...QUOTED.map((f) => [f, "trading"] as const),
  ...TRADING.map((f) => [f, "trading"] as const),
  ...REPORTING.map((f) => [f, "reporting"] as const),
]);
const IN_QUOTED_UNIT: ReadonlySet<string> = new Set(QUOTED);

/** The basis of a figure; null for one without a currency (ratios, multiples, counts, dates). */
export const basisOf = (field: string): CurrencyBasis | null => BASIS.get(field) ?? null;

/** The currencies a document's figures are in. */
export interface FigureCurrencies {
  /** The listing's currency (a pence line's is GBP). */
  trading: string;
  /** The unit the provider quotes the price figures in: GBp for a pence line, else `trading`. */
  quoted: string;
  /** The statements' currency; null when no statement or snapshot says it. */
  reporting: string | null;
}

/** The currency (or sub-unit) a figure is in; null when it has none or its currency is unknown. */
export function currencyOfFigure(field: string, c: FigureCurrencies): string | null {
  const basis = basisOf(field);
  if (basis === "reporting") return c.reporting;
  if (basis === "trading") return IN_QUOTED_UNIT.has(field) ? c.quoted : c.trading;
  return null;
}

/**
 * The figures' currencies from what the provider said (its quote and financial currencies, from
 * this request's answer or the newest stored snapshot) and the statements' own; the listing's
 * currency stands for an unstated quote.
 */
export function figureCurrencies(
  listingCurrency: string,
  said: { quote: string | null; financial: string | null },
  statementCurrency: string | null,
): FigureCurrencies {
  const trading = listingCurrency.toUpperCase();
  // A sub-unit the provider quotes the listing in (GBp for pounds); any other quote currency than
  // the listing's own is not a unit of this listing and is not trusted.
  const quote = said.quote?.trim() || null;
  return {
    trading,
    quoted: quote !== null && currencyScale(quote, trading) === 0.01 ? quote : trading,
    reporting: (said.financial ?? statementCurrency)?.toUpperCase() ?? null,
  };
}

/**
 * Stored highlights with their trading-currency figures (market capitalisation, trailing EPS,
 * dividend, target, and the price figures from their quoted unit) in another currency: times
 * `rate`, units of it for one of the listing's currency. A valuation in the statements' currency
 * reads them so. Ratios, counts and the reporting currency's figures stay as they are.
 */
export function tradingFiguresTimes(
  highlights: Readonly<Record<string, number | string | null>>,
  c: FigureCurrencies,
  rate: string,
): Record<string, number | string | null> {
  const subunit = currencyScale(c.quoted, c.trading) ?? 1;
  return Object.fromEntries(
    Object.entries(highlights).map(([field, v]) => {
      if (basisOf(field) !== "trading" || typeof v !== "number") return [field, v];
      const times = new Decimal(String(v)).times(rate);
      return [field, (currencyOfFigure(field, c) === c.quoted ? times.times(subunit) : times).toNumber()];
    }),
  );
}
