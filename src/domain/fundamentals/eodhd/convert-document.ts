import { convertFixed, convertPrice, ROUNDING_RULE } from "../../fx/rates";
import { addDays } from "../../instants";
import { currencyOfFigure, type FigureCurrencies } from "../figure-currency";
import { FORM4_CURRENCY, moneyFigures, renderCurrencies, sectionOf } from "./currencies";
import type { Section } from "./place";

/**
 * A rendered document in another currency (fmt=eodhd with convert=). Pure: the rates come from a
 * lookup the caller built over the stored reference rates. The rules, stated once:
 * - the snapshot figures (Highlights, Valuation, Technicals, SplitsDividends, AnalystRatings, a
 *   fund's TotalAssets) and the analysts' estimates (Earnings.Trend) at the newest publication;
 * - a balance sheet at its period end's rate (the closing rate), a Form 4 price (dollars) at its
 *   transaction day's;
 * - an income statement, a cash flow, a quarter's or a year's EPS (Earnings.History, .Annual) at
 *   the average of its period's publications;
 * - each in its own currency's rate (statements in the reporting currency, a market
 *   capitalisation in the trading one, a pence line's per-share figures at the pound's rate / 100);
 * - numbers rounded half to even to 6 decimals, decimal strings to the decimals they had
 *   (statement lines 2, estimates 4);
 * - a figure whose currency or rate is not known becomes null, and the notes count it.
 */

export const CONVERSION_METHOD =
  "Snapshot figures and analysts' estimates at the newest ECB reference rate; balance sheets at their period end's rate (closing); income statements, cash flows and reported EPS at the average of their period's daily reference rates; each figure from its own currency (statements and estimates from the reporting currency, prices, market capitalisation and per-share trading figures from the trading currency).";

export const CONVERSION_ROUNDING = `${ROUNDING_RULE} Here numbers are rounded so; statement lines (2 decimals) and estimates (4) keep their decimals, rounded half to even.`;

/** A served rate of one currency (or sub-unit) into the target. */
export interface UsedRate {
  rate: string;
  /** The publication day (closing, newest) or the first and last days averaged. */
  published: string;
  source: string;
  /** How the rate was taken: "newest", "closing" or "average of N publications". */
  basis: string;
}

/** The rates a conversion reads; null where none is known. */
export interface DocumentRates {
  to: string;
  newest(currency: string): UsedRate | null;
  closing(currency: string, day: string): UsedRate | null;
  average(currency: string, from: string, to: string): UsedRate | null;
}

/** The first day of a period ending `end`: a month-end period starts on a month's first day. */
export function periodStart(end: string, periodType: "annual" | "quarterly"): string {
  const months = periodType === "annual" ? 12 : 3;
  const [y, m, d] = end.split("-").map(Number) as [number, number, number];
  const monthEnd = addDays(end, 1).slice(8) === "01";
  if (monthEnd) {
    const start = new Date(Date.UTC(y, m - months, 1));
    return start.toISOString().slice(0, 10);
  }
  // The same day `months` earlier, clamped to that month's length (30 May less three months is 28 February).
  const monthLength = new Date(Date.UTC(y, m - months, 0)).getUTCDate();
  return addDays(new Date(Date.UTC(y, m - 1 - months, Math.min(d, monthLength))).toISOString().slice(0, 10), 1);
}

/**
 * Each period's first day: the day after the period before it ends, when that one ends about a
 * period earlier (52- and 53-week fiscal years, quarters of 13 weeks), else periodStart.
 */
export function periodStarts(ends: readonly string[], periodType: "annual" | "quarterly"): Map<string, string> {
  const sorted = [...new Set(ends)].sort();
  const starts = new Map<string, string>();
  sorted.forEach((end, i) => {
    const approx = periodStart(end, periodType);
    const prev = sorted[i - 1];
    const after = prev ? addDays(prev, 1) : null;
    const near = after !== null && Math.abs(Date.parse(after) - Date.parse(approx)) <= 10 * 86_400_000;
    starts.set(end, near && after ? after : approx);
  });
  return starts;
}

/** The days a conversion of `doc` reads rates for: the earliest period start, and the currencies. */
export function ratesNeeded(doc: Section, c: FigureCurrencies): { from: string | null; currencies: string[] } {
  let from: string | null = null;
  const currencies = new Set([c.trading, c.quoted, ...(c.reporting ? [c.reporting] : [])]);
  const earlier = (day: string) => {
    if (from === null || day < from) from = day;
  };
  for (const statement of Object.values(sectionOf(doc, "Financials"))) {
    for (const periodType of ["annual", "quarterly"] as const) {
      const rows = sectionOf(statement as Section, periodType === "annual" ? "yearly" : "quarterly");
      for (const row of Object.values(rows) as Section[]) {
        if (typeof row.date === "string") earlier(periodStart(row.date, periodType));
        if (typeof row.currency_symbol === "string") currencies.add(row.currency_symbol);
      }
    }
  }
  const earnings = sectionOf(doc, "Earnings");
  for (const day of Object.keys(sectionOf(earnings, "History"))) earlier(periodStart(day, "quarterly"));
  for (const day of Object.keys(sectionOf(earnings, "Annual"))) earlier(periodStart(day, "annual"));
  // Form 4 lines within the statements' span only: one old line does not pull years of rates in
  // (an older line's price stays unconverted, counted in the notes).
  const statementsFrom: string | null = from;
  for (const row of Object.values(sectionOf(doc, "InsiderTransactions")) as Section[]) {
    const day = insiderDay(row);
    if (day && typeof row.transactionPrice === "number") {
      if (statementsFrom === null) earlier(day);
      currencies.add(FORM4_CURRENCY);
    }
  }
  return { from, currencies: [...currencies] };
}

/** The day a Form 4 line's price is of: its transaction's, else its filing's. */
const insiderDay = (row: Section): string | null =>
  typeof row.transactionDate === "string" ? row.transactionDate : typeof row.date === "string" ? row.date : null;

/** Form 4 lines: each price at the closing rate of its transaction's day. */
function convertInsiders(doc: Section, rates: DocumentRates, t: Tally): Section {
  return Object.fromEntries(
    Object.entries(sectionOf(doc, "InsiderTransactions")).map(([key, r]) => {
      const row = r as Section;
      const day = insiderDay(row);
      const rate = day && typeof row.transactionPrice === "number" ? rates.closing(FORM4_CURRENCY, day) : null;
      return [
        key,
        {
          ...row,
          transactionPrice: numberAt(row.transactionPrice, rate, t),
          fx_rate: rate?.rate ?? null,
          fx_basis: basisOf(rate),
        },
      ];
    }),
  );
}

/** Lines of a statement that are not money (a share count). */
const NOT_MONEY = new Set(["date", "filing_date", "currency_symbol", "commonStockSharesOutstanding"]);

interface Tally {
  rates: Record<string, UsedRate>;
  unconverted: number;
}

const numberAt = (v: unknown, rate: UsedRate | null, t: Tally): unknown => {
  if (typeof v !== "number") return v;
  if (!rate) {
    t.unconverted++;
    return null;
  }
  return convertPrice(v, rate.rate);
};

const fixedAt = (v: unknown, rate: UsedRate | null, t: Tally): unknown => {
  if (typeof v !== "string") return v;
  if (!rate) {
    t.unconverted++;
    return null;
  }
  return convertFixed(v, rate.rate, v.split(".")[1]?.length ?? 0);
};

/** What a row says of its rate: "closing (2025-12-31)", "average of 255 publications (2025-01-02..2025-12-31)". */
const basisOf = (rate: UsedRate | null): string | null => (rate ? `${rate.basis} (${rate.published})` : null);

function newestOf(rates: DocumentRates, currency: string | null, t: Tally): UsedRate | null {
  if (!currency) return null;
  const r = rates.newest(currency);
  if (r) t.rates[currency] = r;
  return r;
}

function convertFinancials(doc: Section, rates: DocumentRates, reporting: string | null, t: Tally): Section {
  const out: Section = {};
  for (const [name, statement] of Object.entries(sectionOf(doc, "Financials"))) {
    const s = statement as Section;
    const periods = (periodType: "annual" | "quarterly") => {
      const rows = Object.entries(sectionOf(s, periodType === "annual" ? "yearly" : "quarterly"));
      const starts = periodStarts(
        rows.flatMap(([, r]) => (typeof (r as Section).date === "string" ? [(r as Section).date as string] : [])),
        periodType,
      );
      return Object.fromEntries(
        rows.map(([key, r]) => {
          const row = r as Section;
          const currency = typeof row.currency_symbol === "string" ? row.currency_symbol : reporting;
          const end = typeof row.date === "string" ? row.date : null;
          const rate =
            !currency || !end
              ? null
              : name === "Balance_Sheet"
                ? rates.closing(currency, end)
                : rates.average(currency, starts.get(end) ?? periodStart(end, periodType), end);
          const converted: Section = {};
          for (const [line, v] of Object.entries(row)) converted[line] = NOT_MONEY.has(line) ? v : fixedAt(v, rate, t);
          converted.currency_symbol = rates.to;
          converted.fx_rate = rate?.rate ?? null;
          converted.fx_basis = basisOf(rate);
          return [key, converted];
        }),
      );
    };
    out[name] = { currency_symbol: rates.to, quarterly: periods("quarterly"), yearly: periods("annual") };
  }
  return out;
}

function convertEarnings(doc: Section, rates: DocumentRates, reporting: string | null, t: Tally): Section {
  const earnings = sectionOf(doc, "Earnings");
  const newest = newestOf(rates, reporting, t);
  const quarters = periodStarts(Object.keys(sectionOf(earnings, "History")), "quarterly");
  const years = periodStarts(Object.keys(sectionOf(earnings, "Annual")), "annual");
  const history = Object.fromEntries(
    Object.entries(sectionOf(earnings, "History")).map(([day, r]) => {
      const row = r as Section;
      const rate = reporting ? rates.average(reporting, quarters.get(day) ?? day, day) : null;
      const at = (v: unknown) => numberAt(v, rate, t);
      return [
        day,
        {
          ...row,
          currency: rates.to,
          epsActual: at(row.epsActual),
          epsEstimate: at(row.epsEstimate),
          epsDifference: at(row.epsDifference),
          fx_rate: rate?.rate ?? null,
          fx_basis: basisOf(rate),
        },
      ];
    }),
  );
  const trend = Object.fromEntries(
    Object.entries(sectionOf(earnings, "Trend")).map(([key, r]) => {
      const row = r as Section;
      const at = (v: unknown) => fixedAt(v, newest, t);
      return [
        key,
        {
          ...row,
          earningsEstimateAvg: at(row.earningsEstimateAvg),
          earningsEstimateLow: at(row.earningsEstimateLow),
          earningsEstimateHigh: at(row.earningsEstimateHigh),
          revenueEstimateAvg: at(row.revenueEstimateAvg),
        },
      ];
    }),
  );
  const annual = Object.fromEntries(
    Object.entries(sectionOf(earnings, "Annual")).map(([day, r]) => {
      const row = r as Section;
      const rate = reporting ? rates.average(reporting, years.get(day) ?? day, day) : null;
      return [
        day,
        { ...row, epsActual: numberAt(row.epsActual, rate, t), fx_rate: rate?.rate ?? null, fx_basis: basisOf(rate) },
      ];
    }),
  );
  return { History: history, Trend: trend, Annual: annual };
}

/**
 * The document in `rates.to`: every money figure converted by the rules above, Currencies saying
 * both the original currencies and the one converted into, and a Conversion section with the
 * newest rates used, the method and the rounding.
 */
export function convertDocument(doc: Section, c: FigureCurrencies, rates: DocumentRates): Section {
  const t: Tally = { rates: {}, unconverted: 0 };
  const out: Section = { ...doc };
  for (const section of new Set([...moneyFigures(doc)].map((f) => f.section)))
    out[section] = { ...sectionOf(doc, section) };
  for (const { section, key, field } of moneyFigures(doc)) {
    const rate = newestOf(rates, currencyOfFigure(field, c), t);
    (out[section] as Section)[key] = numberAt(sectionOf(doc, section)[key], rate, t);
  }
  if ("Earnings" in doc) out.Earnings = convertEarnings(doc, rates, c.reporting, t);
  if ("Financials" in doc) out.Financials = convertFinancials(doc, rates, c.reporting, t);
  if ("InsiderTransactions" in doc) out.InsiderTransactions = convertInsiders(doc, rates, t);
  if ("ETF_Data" in doc) {
    const etf = sectionOf(doc, "ETF_Data");
    out.ETF_Data = { ...etf, TotalAssets: fixedAt(etf.TotalAssets, newestOf(rates, c.trading, t), t) };
  }
  out.Currencies = renderCurrencies(doc, c, rates.to);
  const notes: string[] = [];
  if (!c.reporting && ("Financials" in doc || "Earnings" in doc))
    notes.push("the reporting currency is not known: figures in it are null");
  if (t.unconverted) notes.push(`${t.unconverted} figure(s) without a known currency or rate are null`);
  out.Conversion = {
    To: rates.to,
    Rates: t.rates,
    Method: CONVERSION_METHOD,
    Rounding: CONVERSION_ROUNDING,
    Notes: notes,
  };
  return out;
}
