import { SEED_CATALOGUE } from "../db/seed-catalogue";
import { FUNDAMENTALS_AS_OF, simCompany } from "./fundamentals-data";

/**
 * Deterministic SEC EDGAR content for the catalogue's US registrants: their CIKs (the real ones),
 * and about thirty Form 4 filings each over the year before FUNDAMENTALS_AS_OF, in the real
 * ownershipDocument layout: sales under a 10b5-1 plan (footnoted, weighted-average prices), option
 * exercises (a derivative transaction and the shares it gives), awards, tax withholdings, gifts
 * (no price), and one amendment (4/A) correcting an earlier filing's share count.
 */

/** Real CIKs of the catalogue's US registrants (SAP's American shares are filed under SAP SE). */
export const CIK_OF: Readonly<Record<string, number>> = {
  AAPL: 320193,
  MSFT: 789019,
  AMZN: 1018724,
  GOOGL: 1652044,
  GOOG: 1652044,
  META: 1326801,
  NVDA: 1045810,
  TSLA: 1318605,
  NFLX: 1065280,
  INTC: 50863,
  CSCO: 858877,
  PEP: 77476,
  ADBE: 796343,
  COST: 909832,
  AMD: 2488,
  QCOM: 804328,
  AVGO: 1730168,
  JPM: 19617,
  KO: 21344,
  JNJ: 200406,
  PG: 80424,
  XOM: 34088,
  V: 1403161,
  "BRK-B": 1067983,
  MCD: 63908,
  DIS: 1744489,
  IBM: 51143,
  CVX: 93410,
  PFE: 78003,
  HD: 354950,
  NKE: 320187,
  GS: 886982,
  CAT: 18230,
  SAP: 1000184,
};

/** Registrants that file no Form 4 (a foreign private issuer's insiders do not). */
const NO_FORM4 = new Set(["SAP"]);

export interface SimOwner {
  cik: string;
  name: string;
  director: boolean;
  officer: boolean;
  title: string | null;
  tenPercent: boolean;
}

export interface SimTransaction {
  table: "non_derivative" | "derivative";
  security: string;
  date: string;
  code: string;
  shares: number;
  /** Null: the filing leaves the price empty (a gift, an award). */
  price: number | null;
  acquiredDisposed: "A" | "D";
  after: number;
  ownership: "D" | "I";
  nature: string | null;
  footnotes: string[];
  exercisePrice?: number;
  exerciseDate?: string;
  expirationDate?: string;
  underlyingShares?: number;
}

export interface SimFiling {
  accession: string;
  form: "4" | "4/A";
  filingDate: string;
  acceptance: string;
  periodOfReport: string;
  primaryDocument: string;
  owner: SimOwner;
  transactions: SimTransaction[];
  footnotes: Record<string, string>;
}

export interface SimRegistrant {
  cik: number;
  ticker: string;
  name: string;
  filings: SimFiling[];
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const weekday = (day: string) => {
  let d = day;
  while ([0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay())) d = addDays(d, -1);
  return d;
};

const FOOTNOTES = {
  plan: "The sale reported on this Form 4 was effected pursuant to a Rule 10b5-1 trading plan adopted by the reporting person.",
  average:
    "The price reported is a weighted average price. These shares were sold in multiple transactions at prices ranging from the reported price less 1% to the reported price plus 1%, inclusive.",
  vest: "Each restricted stock unit represents the right to receive one share of common stock upon vesting.",
  trust: "The shares are held by a family trust of which the reporting person is a trustee.",
};

function ownersOf(ticker: string, cik: number): SimOwner[] {
  const base = 1_700_000 + (hash(ticker) % 200_000);
  const people = [
    ["MARTIN ALEX", false, true, "Chief Executive Officer"],
    ["NGUYEN DANA", false, true, "Chief Financial Officer"],
    ["OKAFOR JAMES", true, false, null],
    ["LINDQVIST MAJA", true, false, null],
  ] as const;
  const owners: SimOwner[] = people.map(([name, director, officer, title], i) => ({
    cik: String(base + i * 7),
    name,
    director,
    officer,
    title,
    tenPercent: false,
  }));
  // One registrant has a 10 % owner among its filers.
  if (cik === 1067983 || hash(ticker) % 5 === 0)
    owners.push({
      cik: String(base + 99),
      name: "SUMMIT HOLDINGS LP",
      director: false,
      officer: false,
      title: null,
      tenPercent: true,
    });
  return owners;
}

const accessionOf = (cik: number, year: string, seq: number) =>
  `${String(cik).padStart(10, "0")}-${year.slice(2)}-${String(seq).padStart(6, "0")}`;

function buildRegistrant(ticker: string, cik: number, name: string): SimRegistrant {
  const company = simCompany(ticker);
  const price = company?.price ?? 100;
  const owners = ownersOf(ticker, cik);
  const filings: SimFiling[] = [];
  if (NO_FORM4.has(ticker)) return { cik, ticker, name, filings };
  const holdings = new Map(owners.map((o, i) => [o.cik, 50_000 + ((hash(`${ticker}${i}`) % 900) + 100) * 1000]));
  for (let k = 0; k < 30; k++) {
    const owner = owners[(hash(`${ticker}:o${k}`) % owners.length) as number] as SimOwner;
    const date = weekday(addDays(FUNDAMENTALS_AS_OF, -(400 - k * 13) + (hash(`${ticker}:d${k}`) % 5)));
    // Filed within two business days (a weekend rolls back to the Friday, never before the trade).
    const filingDate = weekday(addDays(date, 2));
    const kind = hash(`${ticker}:k${k}`) % 6;
    const px = Math.round(price * (0.85 + (hash(`${ticker}:p${k}`) % 300) / 1000) * 100) / 100;
    const held = holdings.get(owner.cik) ?? 100_000;
    const shares = 1000 + (hash(`${ticker}:s${k}`) % 40) * 500;
    const tx: SimTransaction[] = [];
    const notes: Record<string, string> = {};
    if (kind <= 1) {
      // A sale under a trading plan, at a weighted average price.
      notes.F1 = FOOTNOTES.plan;
      notes.F2 = FOOTNOTES.average;
      tx.push({
        table: "non_derivative",
        security: "Common Stock",
        date,
        code: "S",
        shares,
        price: px,
        acquiredDisposed: "D",
        after: held - shares,
        ownership: "D",
        nature: null,
        footnotes: ["F1", "F2"],
      });
      holdings.set(owner.cik, held - shares);
    } else if (kind === 2) {
      // An option exercise: the derivative disposed of, the shares acquired, some sold to cover.
      const strike = Math.round(price * 0.4 * 100) / 100;
      tx.push(
        {
          table: "non_derivative",
          security: "Common Stock",
          date,
          code: "M",
          shares,
          price: strike,
          acquiredDisposed: "A",
          after: held + shares,
          ownership: "D",
          nature: null,
          footnotes: [],
        },
        {
          table: "non_derivative",
          security: "Common Stock",
          date,
          code: "F",
          shares: Math.round(shares * 0.4),
          price: px,
          acquiredDisposed: "D",
          after: held + shares - Math.round(shares * 0.4),
          ownership: "D",
          nature: null,
          footnotes: [],
        },
        {
          table: "derivative",
          security: "Employee Stock Option (right to buy)",
          date,
          code: "M",
          shares,
          price: 0,
          acquiredDisposed: "D",
          after: 20_000,
          ownership: "D",
          nature: null,
          footnotes: [],
          exercisePrice: strike,
          exerciseDate: addDays(date, -700),
          expirationDate: addDays(date, 2900),
          underlyingShares: shares,
        },
      );
      holdings.set(owner.cik, held + shares - Math.round(shares * 0.4));
    } else if (kind === 3) {
      notes.F1 = FOOTNOTES.vest;
      tx.push({
        table: "non_derivative",
        security: "Common Stock",
        date,
        code: "A",
        shares,
        price: 0,
        acquiredDisposed: "A",
        after: held + shares,
        ownership: "D",
        nature: null,
        footnotes: ["F1"],
      });
      holdings.set(owner.cik, held + shares);
    } else if (kind === 4) {
      // A gift to a family trust: no price.
      notes.F1 = FOOTNOTES.trust;
      tx.push({
        table: "non_derivative",
        security: "Common Stock",
        date,
        code: "G",
        shares: Math.round(shares / 2),
        price: null,
        acquiredDisposed: "D",
        after: held - Math.round(shares / 2),
        ownership: "D",
        nature: null,
        footnotes: [],
      });
      tx.push({
        table: "non_derivative",
        security: "Common Stock",
        date,
        code: "G",
        shares: Math.round(shares / 2),
        price: null,
        acquiredDisposed: "A",
        after: Math.round(shares / 2),
        ownership: "I",
        nature: "By Trust",
        footnotes: ["F1"],
      });
      holdings.set(owner.cik, held - Math.round(shares / 2));
    } else {
      tx.push({
        table: "non_derivative",
        security: "Common Stock",
        date,
        code: "P",
        shares: Math.round(shares / 4),
        price: px,
        acquiredDisposed: "A",
        after: held + Math.round(shares / 4),
        ownership: "D",
        nature: null,
        footnotes: [],
      });
      holdings.set(owner.cik, held + Math.round(shares / 4));
    }
    const epoch = Math.floor(Date.parse(`${filingDate}T21:30:00Z`) / 1000);
    filings.push({
      accession: accessionOf(cik, filingDate.slice(0, 4), 100 + k),
      form: "4",
      filingDate,
      acceptance: `${filingDate}T21:30:${String(k % 60).padStart(2, "0")}.000Z`,
      periodOfReport: date,
      primaryDocument: `xslF345X05/wk-form4_${epoch}.xml`,
      owner,
      transactions: tx,
      footnotes: notes,
    });
  }
  // An amendment of the eighth filing: the same owner and period, the share count corrected.
  const original = filings[7];
  if (original) {
    const filingDate = weekday(addDays(original.filingDate, 6));
    const epoch = Math.floor(Date.parse(`${filingDate}T21:45:00Z`) / 1000);
    filings.push({
      ...original,
      accession: accessionOf(cik, filingDate.slice(0, 4), 900),
      form: "4/A",
      filingDate,
      acceptance: `${filingDate}T21:45:00.000Z`,
      primaryDocument: `xslF345X05/wk-form4a_${epoch}.xml`,
      transactions: original.transactions.map((t, i) =>
        i === 0
          ? { ...t, shares: t.shares + 100, after: t.acquiredDisposed === "A" ? t.after + 100 : t.after - 100 }
          : t,
      ),
    });
  }
  filings.sort((a, b) => (a.acceptance < b.acceptance ? 1 : -1));
  return { cik, ticker, name, filings };
}

const registrants = new Map<number, SimRegistrant>();

/** The catalogue's US registrants, by CIK. */
export function simRegistrants(): ReadonlyMap<number, SimRegistrant> {
  if (registrants.size === 0) {
    for (const inst of SEED_CATALOGUE) {
      if (!inst.isin.startsWith("US") || inst.quoteType !== "EQUITY") continue;
      const ticker = inst.listings[0]?.ticker;
      const cik = ticker ? CIK_OF[ticker] : undefined;
      if (!ticker || cik === undefined || registrants.has(cik)) continue;
      registrants.set(cik, buildRegistrant(ticker, cik, inst.name));
    }
  }
  return registrants;
}
