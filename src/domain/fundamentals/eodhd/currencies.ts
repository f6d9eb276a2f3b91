import { basisOf, currencyOfFigure, type FigureCurrencies } from "../figure-currency";
import { SNAPSHOT_PLACEMENTS } from "./highlights";
import type { Section } from "./place";

/** Form 4 prices are the SEC filing's, in dollars. */
export const FORM4_CURRENCY = "USD";

/** A document's section, or an empty one. */
export const sectionOf = (doc: Section, name: string): Section => {
  const s = doc[name];
  return s && typeof s === "object" ? (s as Section) : {};
};

/** Each money figure placed in a snapshot section: its section, its key in the layout and the service figure. */
export function* moneyFigures(doc: Section): Generator<{ section: string; key: string; field: string }> {
  for (const [section, placements] of Object.entries(SNAPSHOT_PLACEMENTS)) {
    const placed = sectionOf(doc, section);
    for (const [key, field] of placements) {
      if (field && basisOf(field) && key in placed && placed[key] !== null) yield { section, key, field };
    }
  }
}

/**
 * The Currencies section (the service's own, beside Providers and Sources): the trading, quoted and
 * reporting currencies, and the currency of every money figure the document holds, by section as
 * Sources names their origin. `converted` is the currency every figure was converted into.
 */
export function renderCurrencies(doc: Section, c: FigureCurrencies, converted: string | null = null): Section {
  const figures: Record<string, Record<string, string | null>> = {};
  for (const { section, key, field } of moneyFigures(doc)) {
    const currency = converted ?? currencyOfFigure(field, c);
    if (!currency) continue;
    figures[section] ??= {};
    (figures[section] as Record<string, string | null>)[key] = currency;
  }
  const earnings = sectionOf(doc, "Earnings");
  const reporting = converted ?? c.reporting;
  for (const part of ["History", "Trend", "Annual"]) {
    if (Object.keys(sectionOf(earnings, part)).length) {
      figures.Earnings ??= {};
      figures.Earnings[part] = reporting;
    }
  }
  const financials = sectionOf(doc, "Financials");
  for (const [name, statement] of Object.entries(financials)) {
    const s = statement as Section;
    if (Object.keys(sectionOf(s, "yearly")).length || Object.keys(sectionOf(s, "quarterly")).length) {
      figures.Financials ??= {};
      figures.Financials[name] = converted ?? (typeof s.currency_symbol === "string" ? s.currency_symbol : reporting);
    }
  }
  const insiders = Object.values(sectionOf(doc, "InsiderTransactions")) as Section[];
  if (insiders.some((r) => typeof r.transactionPrice === "number"))
    figures.InsiderTransactions = { transactionPrice: converted ?? FORM4_CURRENCY };
  const etf = sectionOf(doc, "ETF_Data");
  if (etf.TotalAssets !== undefined && etf.TotalAssets !== null)
    figures.ETF_Data = { TotalAssets: converted ?? currencyOfFigure("total_assets", c) };
  return {
    Trading: c.trading,
    Quoted: c.quoted,
    Reporting: c.reporting,
    ...(converted ? { ConvertedTo: converted } : {}),
    Figures: figures,
  };
}
