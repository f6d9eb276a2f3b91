import type { SeedInstrument } from "../db/seed-catalogue";
import { FULL_CATALOGUE } from "../db/seed-indices";
import { simulatedRate } from "./ecb";
import { dailyHistory, SIM_SYMBOLS, type SimSymbol } from "./market-data";

/**
 * Deterministic company figures for the delayed-provider simulator's quoteSummary and
 * fundamentals-timeseries. Statements add up (gross profit = revenue - cost, EBIT - interest =
 * pretax, pretax - tax = net income, diluted EPS = net income / diluted shares, free cash flow =
 * operating cash flow + capital expenditure, assets = liabilities + equity, annual = the sum of its
 * four quarters), and the price ratios are computed from the simulated price history. Everything is
 * "as of" FUNDAMENTALS_AS_OF, so the figures, and the golden documents built on them, never move.
 */
export const FUNDAMENTALS_AS_OF = "2026-11-20";

export interface SimPeriod {
  /** Period end, YYYY-MM-DD. */
  end: string;
  revenue: number;
  costOfRevenue: number;
  grossProfit: number;
  researchAndDevelopment: number;
  sellingGeneralAndAdministration: number;
  operatingExpense: number;
  operatingIncome: number;
  depreciation: number;
  ebitda: number;
  interestExpense: number;
  pretaxIncome: number;
  taxProvision: number;
  netIncome: number;
  dilutedShares: number;
  dilutedEps: number;
  basicEps: number;
  totalAssets: number;
  totalLiabilities: number;
  equity: number;
  cash: number;
  totalDebt: number;
  netDebt: number;
  ordinaryShares: number;
  operatingCashFlow: number;
  /** Negative, as the provider signs it. */
  capitalExpenditure: number;
  freeCashFlow: number;
  /** Negative, as the provider signs it. */
  dividendsPaid: number;
}

export interface SimCompany {
  sym: SimSymbol;
  seed: SeedInstrument;
  /** Reporting currency (the home market's). */
  financialCurrency: string;
  /**
   * Units of the trading currency for one of the reporting currency (1 when they are one), at the
   * ECB simulator's rate of FUNDAMENTALS_AS_OF: the provider gives trailing EPS, enterprise value
   * and the price ratios in the trading currency, statements and book value in the reporting one.
   */
  quoteFx: number;
  /** Month (1-12) in which the fiscal year ends. */
  fiscalYearEndMonth: number;
  price: number;
  previousClose: number;
  /** Oldest first: the five latest fiscal years. */
  annual: SimPeriod[];
  /** Oldest first: the six latest quarters. */
  quarterly: SimPeriod[];
  ttm: SimPeriod;
  /** Sum of the last four dividends per share (0 for a share that pays none). */
  dividendRate: number;
  lastDividend: { date: string; amount: number } | null;
  /** The share's last split, when it had one. */
  split: { date: string; numerator: number; denominator: number } | null;
  /** Null for a share too recently listed to have one (the provider leaves it out). */
  beta: number | null;
  sharesOutstanding: number;
  fiftyTwoWeekHigh: number;
  fiftyTwoWeekLow: number;
  fiftyDayAverage: number;
  twoHundredDayAverage: number;
  targetMean: number;
  analysts: { strongBuy: number; buy: number; hold: number; sell: number; strongSell: number };
  /** EPS actual and estimate of the last four quarters, oldest first. */
  earnings: { quarterEnd: string; actual: number; estimate: number }[];
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A number in [lo, hi) drawn from the symbol and a label: the same every time. */
const draw = (symbol: string, label: string, lo: number, hi: number) =>
  lo + ((hash(`${symbol}:${label}`) % 10_000) / 10_000) * (hi - lo);

const r2 = (x: number) => Math.round(x * 100) / 100;
const r0 = (x: number) => Math.round(x);

/**
 * Fiscal years that do not end in December (the real ones of the catalogue's companies), so their
 * reports fall in every month of the earnings calendar as the real ones do.
 */
const FISCAL_YEAR_END: Record<string, number> = {
  AAPL: 9,
  MSFT: 6,
  NVDA: 1,
  ORCL: 5,
  ADBE: 11,
  COST: 8,
  NKE: 5,
  AVGO: 10,
  CSCO: 7,
  HD: 1,
};

const HOME_CURRENCY: Record<string, string> = { US: "USD", GB: "GBP" };

/**
 * Companies whose figures take the valuation's edge cases, each a trait the real company has:
 * Rocket Lab makes operating losses, Starbucks' buybacks have made its book equity negative, and
 * CoreWeave (listed in 2025) has too short a history for a beta.
 */
const TRAITS: Record<string, { loss?: true; negativeEquity?: true; noBeta?: true }> = {
  RKLB: { loss: true },
  SBUX: { negativeEquity: true },
  CRWV: { noBeta: true },
};

function monthEnd(year: number, month: number): string {
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

/** Quarter ends (ascending) aligned with the fiscal year, the last one reported by `asOf` (40 days to report). */
function quarterEnds(fyMonth: number, asOf: string, count: number): string[] {
  const limit = Date.parse(`${asOf}T00:00:00Z`) - 40 * 86_400_000;
  let year = Number(asOf.slice(0, 4)) + 1;
  let month = fyMonth;
  const out: string[] = [];
  while (out.length < count) {
    const end = monthEnd(year, month);
    if (Date.parse(`${end}T00:00:00Z`) <= limit) out.unshift(end);
    month -= 3;
    if (month <= 0) {
      month += 12;
      year -= 1;
    }
  }
  return out;
}

const SUM_KEYS = [
  "revenue",
  "costOfRevenue",
  "grossProfit",
  "researchAndDevelopment",
  "sellingGeneralAndAdministration",
  "operatingExpense",
  "operatingIncome",
  "depreciation",
  "ebitda",
  "interestExpense",
  "pretaxIncome",
  "taxProvision",
  "netIncome",
  "operatingCashFlow",
  "capitalExpenditure",
  "freeCashFlow",
  "dividendsPaid",
] as const;

/** A longer period made of quarters: flows summed, stocks (balance sheet) as at its last quarter. */
function combine(quarters: SimPeriod[]): SimPeriod {
  const last = quarters.at(-1) as SimPeriod;
  const out: SimPeriod = { ...last };
  for (const k of SUM_KEYS) out[k] = quarters.reduce((s, q) => s + q[k], 0);
  out.dilutedShares = r0(quarters.reduce((s, q) => s + q.dilutedShares, 0) / quarters.length);
  out.dilutedEps = r2(out.netIncome / out.dilutedShares);
  out.basicEps = r2(out.netIncome / out.ordinaryShares);
  return out;
}

function buildCompany(sym: SimSymbol, seed: SeedInstrument): SimCompany {
  const s = sym.symbol;
  const history = dailyHistory(s, FUNDAMENTALS_AS_OF);
  const bars = history.bars.filter((b) => !b.missing);
  const last = bars.at(-1);
  const prev = bars.at(-2);
  if (!last || !prev) throw new Error(`no simulated prices for ${s}`);
  // Pence lines: the company reports in pounds; prices are in pence.
  const price = sym.currency === "GBp" ? last.close / 100 : last.close;
  const previousClose = sym.currency === "GBp" ? prev.close / 100 : prev.close;
  const fyMonth = FISCAL_YEAR_END[s] ?? 12;
  const financialCurrency = HOME_CURRENCY[seed.country] ?? "EUR";
  const trading = sym.currency === "GBp" ? "GBP" : sym.currency;
  const perEuro = (c: string) => (c === "EUR" ? 1 : Number(simulatedRate(c, FUNDAMENTALS_AS_OF)));
  const quoteFx = trading === financialCurrency ? 1 : perEuro(trading) / perEuro(financialCurrency);

  // 24 quarters of operations; the last 20 make the five fiscal years, the last 6 are shown.
  const ends = quarterEnds(fyMonth, FUNDAMENTALS_AS_OF, 24);
  const grossMargin = draw(s, "gm", 0.3, 0.7);
  const rdShare = draw(s, "rd", 0.02, 0.12);
  const traits = TRAITS[s] ?? {};
  const operatingMargin = traits.loss ? -0.18 : Math.min(grossMargin - 0.08, draw(s, "om", 0.1, 0.35));
  const taxRate = draw(s, "tax", 0.15, 0.28);
  const growth = draw(s, "growth", 0.002, 0.025);
  let revenue = 1e9 * (1 + (hash(`${s}:rev`) % 400));
  const quartersRaw = ends.map((end, i) => {
    const season = 1 + 0.06 * Math.sin((i * Math.PI) / 2);
    revenue *= 1 + growth;
    const rev = r0(revenue * season);
    const cost = r0(rev * (1 - grossMargin));
    const gross = rev - cost;
    const operatingIncome = r0(rev * operatingMargin);
    const opex = gross - operatingIncome;
    const rd = Math.min(r0(rev * rdShare), r0(opex * 0.4));
    const depreciation = r0(rev * 0.04);
    const interest = r0(rev * draw(s, "int", 0.002, 0.01));
    const pretax = operatingIncome - interest;
    const tax = r0(pretax * taxRate);
    return { end, rev, cost, gross, operatingIncome, opex, rd, depreciation, interest, pretax, tax, ni: pretax - tax };
  });
  const ttmIncome = quartersRaw.slice(-4).reduce((acc, q) => acc + q.ni, 0);
  // Shares such that the trailing P/E lands where the company's draw puts it.
  const paysDividend = history.dividends.length > 0;
  const divs = history.dividends.slice(-4);
  const dividendRate = r2(divs.reduce((acc, d) => acc + d.amount, 0) / (sym.currency === "GBp" ? 100 : 1));
  const yieldNow = dividendRate / price;
  const maxPe = paysDividend ? Math.min(40, 0.85 / Math.max(yieldNow, 0.001)) : 40;
  const targetPe = draw(s, "pe", 12, Math.max(13, maxPe));
  // A loss-maker's shares from its price-to-sales instead (no P/E to aim at).
  const ttmRevenue = quartersRaw.slice(-4).reduce((acc, q) => acc + q.rev, 0);
  const shares = traits.loss ? r0((ttmRevenue * 4) / price) : r0((ttmIncome * targetPe) / price);
  const cashShare = draw(s, "cash", 0.05, 0.25);
  const debtShare = draw(s, "debt", 0.1, 0.45);

  const quarters: SimPeriod[] = quartersRaw.map((q, i) => {
    const totalAssets = r0(q.rev * draw(s, "assets", 5, 9) * (1 + 0.01 * i));
    const cash = r0(totalAssets * cashShare);
    const totalDebt = r0(totalAssets * debtShare);
    const equity = traits.negativeEquity ? -r0(totalAssets * 0.08) : r0(totalAssets * draw(s, "equity", 0.3, 0.55));
    const ocf = q.ni + q.depreciation + r0(q.rev * draw(s, `wc${i}`, -0.02, 0.03));
    const capex = -r0(q.rev * draw(s, "capex", 0.02, 0.08));
    const dividendsPaid = paysDividend ? -r0((dividendRate / 4) * shares) : 0;
    return {
      end: q.end,
      revenue: q.rev,
      costOfRevenue: q.cost,
      grossProfit: q.gross,
      researchAndDevelopment: q.rd,
      sellingGeneralAndAdministration: q.opex - q.rd,
      operatingExpense: q.opex,
      operatingIncome: q.operatingIncome,
      depreciation: q.depreciation,
      ebitda: q.operatingIncome + q.depreciation,
      interestExpense: q.interest,
      pretaxIncome: q.pretax,
      taxProvision: q.tax,
      netIncome: q.ni,
      dilutedShares: shares,
      dilutedEps: r2(q.ni / shares),
      basicEps: r2(q.ni / shares),
      totalAssets,
      totalLiabilities: totalAssets - equity,
      equity,
      cash,
      totalDebt,
      netDebt: totalDebt - cash,
      ordinaryShares: shares,
      operatingCashFlow: ocf,
      capitalExpenditure: capex,
      freeCashFlow: ocf + capex,
      dividendsPaid,
    };
  });
  // A fiscal year is the four quarters that end in its closing month.
  const annual: SimPeriod[] = [];
  quarters.forEach((q, i) => {
    if (i >= 3 && Number(q.end.slice(5, 7)) === fyMonth) annual.push(combine(quarters.slice(i - 3, i + 1)));
  });
  const closes = bars.map((b) => (sym.currency === "GBp" ? b.close / 100 : b.close));
  const lastYear = closes.slice(-252);
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const eps = quarters.slice(-4);
  const lastDiv = history.dividends.at(-1);
  return {
    sym,
    seed,
    financialCurrency,
    quoteFx,
    fiscalYearEndMonth: fyMonth,
    price: r2(price),
    previousClose: r2(previousClose),
    annual: annual.slice(-5),
    quarterly: quarters.slice(-6),
    ttm: combine(quarters.slice(-4)),
    dividendRate,
    lastDividend: lastDiv
      ? { date: lastDiv.date, amount: r2(lastDiv.amount / (sym.currency === "GBp" ? 100 : 1)) }
      : null,
    split: history.splits.at(-1) ?? null,
    beta: traits.noBeta ? null : r2(draw(s, "beta", 0.6, 1.8)),
    sharesOutstanding: shares,
    fiftyTwoWeekHigh: r2(Math.max(...lastYear)),
    fiftyTwoWeekLow: r2(Math.min(...lastYear)),
    fiftyDayAverage: r2(avg(closes.slice(-50))),
    twoHundredDayAverage: r2(avg(closes.slice(-200))),
    targetMean: r2(price * draw(s, "target", 0.95, 1.3)),
    analysts: {
      strongBuy: r0(draw(s, "sb", 2, 12)),
      buy: r0(draw(s, "b", 5, 20)),
      hold: r0(draw(s, "h", 3, 15)),
      sell: r0(draw(s, "s", 0, 4)),
      strongSell: r0(draw(s, "ss", 0, 2)),
    },
    earnings: eps.map((q) => ({
      quarterEnd: q.end,
      actual: q.dilutedEps,
      estimate: r2(q.dilutedEps * draw(s, `est${q.end}`, 0.92, 1.05)),
    })),
  };
}

const companies = new Map<string, SimCompany | null>();

/** The simulated company behind a delayed-provider symbol; null for an unknown symbol. */
export function simCompany(symbol: string): SimCompany | null {
  if (companies.has(symbol)) return companies.get(symbol) ?? null;
  const sym = SIM_SYMBOLS.get(symbol);
  const seed = sym ? FULL_CATALOGUE.find((i) => i.isin === sym.isin) : undefined;
  const company = sym && seed ? buildCompany(sym, seed) : null;
  companies.set(symbol, company);
  return company;
}
