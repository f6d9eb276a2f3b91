import { and, asc, desc, eq, gte, inArray, isNull, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Form4 } from "../../domain/insider/form4";
import { inOneTransaction } from "../batch";
import type { Db } from "../client";
import { assets, insiderFilings, insiderTransactions } from "../schema";

export interface FetchedFiling {
  accession: string;
  form: string;
  filingDate: string;
  filingUrl: string;
  document: Form4;
}

const dec = (x: number | null) => (x === null ? null : String(x));

/** The accessions among `accessions` already stored for the issuer. */
export async function storedAccessions(db: Db, issuerCik: number, accessions: readonly string[]): Promise<Set<string>> {
  if (accessions.length === 0) return new Set();
  const rows = await db
    .select({ accession: insiderFilings.accession })
    .from(insiderFilings)
    .where(and(eq(insiderFilings.issuerCik, issuerCik), inArray(insiderFilings.accession, [...accessions])));
  return new Set(rows.map((r) => r.accession));
}

/**
 * Stores filings and their transaction lines (a filing is immutable: a stored accession is left as
 * it is, so a retry or a concurrent call adds nothing), then marks every filing that a later 4/A of
 * the same reporting owner and period amends as superseded by the latest such amendment.
 */
export async function saveFilings(
  db: Db,
  issuerCik: number,
  filings: readonly FetchedFiling[],
  fetchedAt: Date,
): Promise<void> {
  const statements: BatchItem<"pg">[] = [];
  if (filings.length) {
    statements.push(
      db
        .insert(insiderFilings)
        .values(
          filings.map((f) => ({
            accession: f.accession,
            issuerCik,
            form: f.form,
            filingDate: f.filingDate,
            periodOfReport: f.document.periodOfReport,
            ownerCik: f.document.owners[0]?.cik ?? null,
            filingUrl: f.filingUrl,
            footnotes: f.document.footnotes,
            fetchedAt,
          })),
        )
        .onConflictDoNothing(),
    );
    const lines = filings.flatMap((f) => {
      const owner = f.document.owners[0];
      const names = f.document.owners.map((o) => o.name).join("; ");
      return f.document.transactions.map((t) => ({
        accession: f.accession,
        line: t.line,
        issuerCik,
        ownerCik: owner?.cik ?? null,
        ownerName: names,
        isDirector: f.document.owners.some((o) => o.isDirector),
        isOfficer: f.document.owners.some((o) => o.isOfficer),
        officerTitle: f.document.owners.find((o) => o.officerTitle)?.officerTitle ?? null,
        isTenPercentOwner: f.document.owners.some((o) => o.isTenPercentOwner),
        isOther: f.document.owners.some((o) => o.isOther),
        kind: t.table,
        securityTitle: t.securityTitle,
        transactionDate: t.transactionDate,
        code: t.code,
        shares: dec(t.shares),
        price: dec(t.price),
        acquiredDisposed: t.acquiredDisposed,
        sharesOwnedAfter: dec(t.sharesOwnedAfter),
        ownership: t.ownership,
        natureOfOwnership: t.natureOfOwnership,
        conversionOrExercisePrice: dec(t.conversionOrExercisePrice),
        exerciseDate: t.exerciseDate,
        expirationDate: t.expirationDate,
        underlyingSecurityTitle: t.underlyingSecurityTitle,
        underlyingShares: dec(t.underlyingShares),
        footnoteIds: t.footnoteIds,
      }));
    });
    if (lines.length) statements.push(db.insert(insiderTransactions).values(lines).onConflictDoNothing());
  }
  // Recomputed for the whole issuer: the same result whatever order the filings arrived in.
  statements.push(
    db.execute(sql`
      update ${insiderFilings} f set superseded_by = (
        select a.accession from ${insiderFilings} a
        where a.issuer_cik = f.issuer_cik and a.form = '4/A' and a.owner_cik = f.owner_cik
          and a.period_of_report = f.period_of_report
          and (a.filing_date, a.accession) > (f.filing_date, f.accession)
        order by a.filing_date desc, a.accession desc limit 1)
      where f.issuer_cik = ${issuerCik}`),
  );
  await inOneTransaction(db, statements);
}

export interface InsiderQuery {
  from?: string;
  to?: string;
  codes?: readonly string[];
  limit: number;
}

export type StoredInsiderRow = typeof insiderTransactions.$inferSelect & {
  form: string;
  filingDate: string;
  filingUrl: string;
  footnotes: Record<string, string>;
};

/** The issuer's transactions of filings not superseded, newest first, filtered. */
export async function queryInsiderTransactions(
  db: Db,
  issuerCik: number,
  q: InsiderQuery,
): Promise<StoredInsiderRow[]> {
  const conditions = [eq(insiderTransactions.issuerCik, issuerCik), isNull(insiderFilings.supersededBy)];
  if (q.from) conditions.push(gte(insiderTransactions.transactionDate, q.from));
  if (q.to) conditions.push(lte(insiderTransactions.transactionDate, q.to));
  if (q.codes?.length) conditions.push(inArray(insiderTransactions.code, [...q.codes]));
  const rows = await db
    .select({
      t: insiderTransactions,
      form: insiderFilings.form,
      filingDate: insiderFilings.filingDate,
      filingUrl: insiderFilings.filingUrl,
      footnotes: insiderFilings.footnotes,
    })
    .from(insiderTransactions)
    .innerJoin(insiderFilings, eq(insiderFilings.accession, insiderTransactions.accession))
    .where(and(...conditions))
    .orderBy(
      sql`${insiderTransactions.transactionDate} desc nulls last`,
      desc(insiderFilings.filingDate),
      desc(insiderTransactions.accession),
      asc(insiderTransactions.line),
    )
    .limit(q.limit);
  return rows.map((r) => ({
    ...r.t,
    form: r.form,
    filingDate: r.filingDate,
    filingUrl: r.filingUrl,
    footnotes: r.footnotes,
  }));
}

/** Remembers the issuer's SEC CIK on the instrument. */
export async function recordSecCik(db: Db, assetId: number, cik: number): Promise<void> {
  await db.update(assets).set({ secCik: cik }).where(eq(assets.id, assetId));
}

/** When the issuer's stored filings were fetched (the label of figures read from them). */
export async function insiderFetchDays(db: Db, issuerCik: number): Promise<Date[]> {
  const [row] = await db
    .select({ newest: sql<string | null>`max(${insiderFilings.fetchedAt})` })
    .from(insiderFilings)
    .where(eq(insiderFilings.issuerCik, issuerCik));
  return row?.newest ? [new Date(row.newest)] : [];
}
