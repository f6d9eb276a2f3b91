import { XMLParser } from "fast-xml-parser";
import { parseNumberText } from "../numbers";

/**
 * SEC Form 4 (the ownershipDocument XML, schema X0508) as the service's rows: the reporting owners
 * and their relationship to the issuer, every non-derivative and derivative transaction with the
 * meaning of its code, and the footnotes each value refers to. Pure: XML text in, rows out.
 */

/** What each transaction code means (Form 4 General Instructions, section 8). */
export const TRANSACTION_CODES: Readonly<Record<string, string>> = {
  P: "Open market or private purchase",
  S: "Open market or private sale",
  V: "Transaction voluntarily reported earlier than required",
  A: "Grant, award or other acquisition",
  D: "Disposition to the issuer",
  F: "Payment of exercise price or tax liability by delivering or withholding securities",
  I: "Discretionary transaction",
  M: "Exercise or conversion of derivative security exempted under Rule 16b-3",
  C: "Conversion of derivative security",
  E: "Expiration of short derivative position",
  H: "Expiration or cancellation of long derivative position with value received",
  O: "Exercise of out-of-the-money derivative security",
  X: "Exercise of in-the-money or at-the-money derivative security",
  G: "Bona fide gift",
  L: "Small acquisition under Rule 16a-6",
  W: "Acquisition or disposition by will or the laws of descent and distribution",
  Z: "Deposit into or withdrawal from voting trust",
  J: "Other acquisition or disposition",
  K: "Transaction in equity swap or instrument with similar characteristics",
  U: "Disposition pursuant to a tender of shares in a change of control transaction",
};

export interface ReportingOwner {
  cik: string;
  name: string;
  isDirector: boolean;
  isOfficer: boolean;
  officerTitle: string | null;
  isTenPercentOwner: boolean;
  isOther: boolean;
}

export interface InsiderTransaction {
  /** 1-based position in the filing: non-derivative transactions first, then derivative ones. */
  line: number;
  table: "non_derivative" | "derivative";
  securityTitle: string | null;
  transactionDate: string | null;
  code: string;
  codeMeaning: string | null;
  shares: number | null;
  /** Null when the filing leaves it empty (a gift, often an award). */
  price: number | null;
  acquiredDisposed: "A" | "D" | null;
  sharesOwnedAfter: number | null;
  ownership: "D" | "I" | null;
  natureOfOwnership: string | null;
  conversionOrExercisePrice: number | null;
  exerciseDate: string | null;
  expirationDate: string | null;
  underlyingSecurityTitle: string | null;
  underlyingShares: number | null;
  /** Footnote ids referred to anywhere in the transaction (e.g. ["F1", "F2"]). */
  footnoteIds: string[];
}

export interface Form4 {
  documentType: string;
  periodOfReport: string | null;
  issuerCik: string | null;
  issuerSymbol: string | null;
  owners: ReportingOwner[];
  transactions: InsiderTransaction[];
  footnotes: Record<string, string>;
}

const REPEATED = new Set([
  "reportingOwner",
  "nonDerivativeTransaction",
  "derivativeTransaction",
  "footnote",
  "footnoteId",
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => REPEATED.has(name),
});

type Node = Record<string, unknown>;

const node = (v: unknown): Node => (v && typeof v === "object" ? (v as Node) : {});
const list = (v: unknown): Node[] => (Array.isArray(v) ? v.map(node) : v === undefined ? [] : [node(v)]);

/** The text of a leaf, or of its `<value>` child. */
function text(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "string" || typeof v === "number") {
    const s = String(v).trim();
    return s === "" ? null : s;
  }
  const n = node(v);
  if ("value" in n) return text(n.value);
  if ("#text" in n) return text(n["#text"]);
  return null;
}

const numberIn = (v: unknown): number | null => parseNumberText(text(v));

/** 0/1 and true/false both appear in filings. */
const flag = (v: unknown) => ["1", "true"].includes((text(v) ?? "").toLowerCase());

/** Every footnote id anywhere under a node. */
function footnoteIds(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) {
    for (const x of v) footnoteIds(x, out);
    return out;
  }
  if (!v || typeof v !== "object") return out;
  for (const [k, child] of Object.entries(v as Node)) {
    if (k !== "footnoteId") {
      footnoteIds(child, out);
      continue;
    }
    for (const f of list(child)) {
      if (typeof f["@_id"] === "string") out.add(f["@_id"]);
    }
  }
  return out;
}

function transaction(t: Node, line: number, table: InsiderTransaction["table"]): InsiderTransaction {
  const coding = node(t.transactionCoding);
  const amounts = node(t.transactionAmounts);
  const nature = node(t.ownershipNature);
  const underlying = node(t.underlyingSecurity);
  const code = text(coding.transactionCode) ?? "";
  const ad = text(amounts.transactionAcquiredDisposedCode);
  const direct = text(nature.directOrIndirectOwnership);
  return {
    line,
    table,
    securityTitle: text(t.securityTitle),
    transactionDate: text(t.transactionDate)?.slice(0, 10) ?? null,
    code,
    codeMeaning: TRANSACTION_CODES[code] ?? null,
    shares: numberIn(amounts.transactionShares),
    price: numberIn(amounts.transactionPricePerShare),
    acquiredDisposed: ad === "A" || ad === "D" ? ad : null,
    sharesOwnedAfter: numberIn(node(t.postTransactionAmounts).sharesOwnedFollowingTransaction),
    ownership: direct === "D" || direct === "I" ? direct : null,
    natureOfOwnership: text(nature.natureOfOwnership),
    conversionOrExercisePrice: numberIn(t.conversionOrExercisePrice),
    exerciseDate: text(t.exerciseDate)?.slice(0, 10) ?? null,
    expirationDate: text(t.expirationDate)?.slice(0, 10) ?? null,
    underlyingSecurityTitle: text(underlying.underlyingSecurityTitle),
    underlyingShares: numberIn(underlying.underlyingSecurityShares),
    footnoteIds: [...footnoteIds(t)].sort(),
  };
}

/** Parses a Form 4 or 4/A; throws when the text is not an ownershipDocument. */
export function parseForm4(xml: string): Form4 {
  const doc = node(parser.parse(xml)).ownershipDocument;
  if (!doc || typeof doc !== "object") throw new Error("not an ownershipDocument");
  const d = node(doc);
  const issuer = node(d.issuer);
  const owners = list(d.reportingOwner).map((o): ReportingOwner => {
    const id = node(o.reportingOwnerId);
    const rel = node(o.reportingOwnerRelationship);
    return {
      cik: String(Number(text(id.rptOwnerCik) ?? "0")),
      name: text(id.rptOwnerName) ?? "",
      isDirector: flag(rel.isDirector),
      isOfficer: flag(rel.isOfficer),
      officerTitle: text(rel.officerTitle),
      isTenPercentOwner: flag(rel.isTenPercentOwner),
      isOther: flag(rel.isOther),
    };
  });
  const nonDerivative = list(node(d.nonDerivativeTable).nonDerivativeTransaction);
  const derivative = list(node(d.derivativeTable).derivativeTransaction);
  const transactions = [
    ...nonDerivative.map((t, i) => transaction(t, i + 1, "non_derivative")),
    ...derivative.map((t, i) => transaction(t, nonDerivative.length + i + 1, "derivative")),
  ];
  const footnotes: Record<string, string> = {};
  for (const f of list(node(d.footnotes).footnote)) {
    const id = f["@_id"];
    if (typeof id === "string") footnotes[id] = text(f) ?? "";
  }
  const cik = text(issuer.issuerCik);
  return {
    documentType: text(d.documentType) ?? "",
    periodOfReport: text(d.periodOfReport)?.slice(0, 10) ?? null,
    issuerCik: cik === null ? null : String(Number(cik)),
    issuerSymbol: text(issuer.issuerTradingSymbol),
    owners,
    transactions,
    footnotes,
  };
}

/** How an owner relates to the issuer, in words: "Director", "Officer (Chief Executive Officer)", "10% owner". */
export function relationshipOf(o: ReportingOwner): string {
  const parts = [
    o.isDirector && "Director",
    o.isOfficer && (o.officerTitle ? `Officer (${o.officerTitle})` : "Officer"),
    o.isTenPercentOwner && "10% owner",
    o.isOther && "Other",
  ].filter(Boolean);
  return parts.join(", ") || "Not stated";
}
