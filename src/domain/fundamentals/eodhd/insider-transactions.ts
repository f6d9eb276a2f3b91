import type { Section, Sources } from "./place";

export interface InsiderInput {
  filingDate: string;
  ownerCik: string | null;
  ownerName: string;
  transactionDate: string | null;
  code: string;
  shares: number | null;
  price: number | null;
  acquiredDisposed: string | null;
  sharesOwnedAfter: number | null;
  filingUrl: string;
}

/** InsiderTransactions: EODHD's pseudo-array of Form 4 lines, newest first, each labelled in Sources. */
export function renderInsiderTransactions(
  rows: readonly InsiderInput[],
  label: string | null,
  sources: Sources,
): Section {
  const out = Object.fromEntries(
    rows.map((r, i) => [
      String(i),
      {
        date: r.filingDate,
        ownerCik: r.ownerCik,
        ownerName: r.ownerName,
        transactionDate: r.transactionDate,
        transactionCode: r.code,
        transactionAmount: r.shares,
        transactionPrice: r.price,
        transactionAcquiredDisposed: r.acquiredDisposed,
        postTransactionAmount: r.sharesOwnedAfter,
        secLink: r.filingUrl,
      },
    ]),
  );
  if (label && rows.length) sources.InsiderTransactions = Object.fromEntries(rows.map((_, i) => [String(i), label]));
  return out;
}
