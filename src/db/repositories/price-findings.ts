import { and, asc, desc, eq, gte, inArray, lte, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { REPAIRABLE } from "../../domain/price-repair";
import { BAR_KINDS, type Finding, type FindingKind } from "../../domain/price-sanity";
import { inOneTransaction } from "../batch";
import type { Db } from "../client";
import { assets, listings, priceFindings } from "../schema";

/** Rows per INSERT (4 parameters a row). */
const BATCH = 1000;
/**
 * Findings kept per listing and scope: a listing with more has whole stretches wrong, and what a
 * user needs is there (repairable kinds first, then the newest: what /eod windows ask about).
 */
export const FINDINGS_KEPT = 2000;

/** At most FINDINGS_KEPT of `findings`, one per session and kind: repairable kinds first, then the newest. */
export function keptFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  const unique = findings.filter((f) => {
    const key = `${f.date}|${f.kind}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (unique.length <= FINDINGS_KEPT) return unique;
  const rank = (f: Finding) => (REPAIRABLE.has(f.kind) ? 0 : 1);
  return [...unique]
    .sort((a, b) => rank(a) - rank(b) || (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
    .slice(0, FINDINGS_KEPT);
}

function upserts(db: Db, listingId: number, findings: readonly Finding[], at: Date) {
  const out = [];
  for (let i = 0; i < findings.length; i += BATCH)
    out.push(
      db
        .insert(priceFindings)
        .values(findings.slice(i, i + BATCH).map((f) => ({ listingId, ...f, foundAt: at })))
        .onConflictDoUpdate({
          target: [priceFindings.listingId, priceFindings.date, priceFindings.kind],
          // A finding seen again keeps the instant it was first found; new evidence replaces the old.
          set: { evidence: sql`excluded.evidence` },
          setWhere: sql`${priceFindings.evidence} IS DISTINCT FROM excluded.evidence`,
        }),
    );
  return out;
}

/** Which of a listing's findings a check speaks for: kinds, and (either end open) a window of dates. */
export interface FindingScope {
  kinds: readonly FindingKind[];
  from?: string;
  to?: string;
}

/** The BAR_KINDS scope: what each check of the stored bars speaks for, the whole span. */
export const BAR_SCOPE: FindingScope = { kinds: BAR_KINDS };

const inScope = (listingId: number, scope: FindingScope) =>
  and(
    eq(priceFindings.listingId, listingId),
    inArray(priceFindings.kind, [...scope.kinds]),
    scope.from ? gte(priceFindings.date, scope.from) : undefined,
    scope.to ? lte(priceFindings.date, scope.to) : undefined,
  );

/** A listing's stored findings in a scope: one statement, for a batch. */
export const scopedFindingsQuery = (db: Db, listingId: number, scope: FindingScope) =>
  db
    .select({ date: priceFindings.date, kind: priceFindings.kind, evidence: priceFindings.evidence })
    .from(priceFindings)
    .where(inScope(listingId, scope));

/** Whether stored findings are exactly `kept` (then a check need not write them again). */
export function sameFindings(stored: readonly Finding[], kept: readonly Finding[]): boolean {
  const key = (f: Finding) => `${f.date}|${f.kind}|${JSON.stringify(f.evidence, Object.keys(f.evidence).sort())}`;
  const a = new Set(stored.map(key));
  return a.size === kept.length && kept.every((f) => a.has(key(f)));
}

/**
 * The statements that replace a listing's findings in `scope` with `kept` (keptFindings of what
 * the check found there), for one transaction: a finding no longer true goes, one still true is
 * kept as first found. The same evidence gives the same rows, whoever writes them.
 */
export function replaceFindings(db: Db, listingId: number, scope: FindingScope, kept: readonly Finding[], at: Date) {
  const stillTrue: SQL = kept.length
    ? sql`(${priceFindings.date}, ${priceFindings.kind}) NOT IN (${sql.join(
        kept.map((f) => sql`(${f.date}::date, ${f.kind})`),
        sql`, `,
      )})`
    : sql`true`;
  return [
    db.delete(priceFindings).where(and(inScope(listingId, scope), stillTrue)),
    ...upserts(db, listingId, kept, at),
  ];
}

/** Replaces a listing's findings in `scope` with `found` (one transaction). */
export async function saveFindings(
  db: Db,
  listingId: number,
  scope: FindingScope,
  found: readonly Finding[],
  at: Date,
) {
  await inOneTransaction(db, replaceFindings(db, listingId, scope, keptFindings(found), at));
}

/** A listing's findings from `from` on (all without it), by date then kind: one statement, for a batch. */
export function findingsQuery(db: Db, listingIds: SQLWrapper | number[], from?: string | null) {
  return db
    .select({
      listingId: priceFindings.listingId,
      date: priceFindings.date,
      kind: priceFindings.kind,
      evidence: priceFindings.evidence,
    })
    .from(priceFindings)
    .where(
      and(
        inArray(priceFindings.listingId, listingIds),
        // A split found after the window still scales the bars of it (repair): those kinds come whatever their date.
        from
          ? sql`(${gte(priceFindings.date, from)} OR ${inArray(priceFindings.kind, ["split_missing", "split_doubled"])})`
          : undefined,
      ),
    )
    .orderBy(asc(priceFindings.date), asc(priceFindings.kind));
}

export type FindingRow = Awaited<ReturnType<typeof findingsQuery>>[number];

/** What the net found across the catalogue: totals by kind, and the listings with most findings. */
export async function findingsSummary(db: Db, limit: number) {
  const [byKind, top, listingsWith] = await db.batch([
    db
      .select({
        kind: priceFindings.kind,
        findings: sql<number>`count(*)::int`,
        listings: sql<number>`count(DISTINCT ${priceFindings.listingId})::int`,
        lastFoundAt: sql<string | null>`max(${priceFindings.foundAt})`,
      })
      .from(priceFindings)
      .groupBy(priceFindings.kind)
      .orderBy(asc(priceFindings.kind)),
    topListingsQuery(db, limit),
    db.select({ n: sql<number>`count(DISTINCT ${priceFindings.listingId})::int` }).from(priceFindings),
  ]);
  return { byKind, top, listings: listingsWith[0]?.n ?? 0 };
}

/** The listings with most findings (of `kinds` only, when given): one statement, for a batch. */
function topListingsQuery(db: Db, limit: number, kinds?: readonly FindingKind[]) {
  return db
    .select({
      ticker: listings.ticker,
      exchange: listings.exchange,
      isin: assets.isin,
      findings: sql<number>`count(*)::int`,
      kinds: sql<FindingKind[]>`array_agg(DISTINCT ${priceFindings.kind} ORDER BY ${priceFindings.kind})`,
      first: sql<string>`min(${priceFindings.date})::text`,
    })
    .from(priceFindings)
    .innerJoin(listings, eq(listings.id, priceFindings.listingId))
    .innerJoin(assets, eq(assets.id, listings.assetId))
    .where(kinds ? inArray(priceFindings.kind, [...kinds]) : undefined)
    .groupBy(listings.id, listings.ticker, listings.exchange, assets.isin)
    .orderBy(desc(sql`count(*)`), asc(listings.ticker), asc(listings.id))
    .limit(limit);
}

/** The listings holding findings of `kinds`, most such findings first: the canary's failures to name. */
export const listingsWithKinds = (db: Db, kinds: readonly FindingKind[], limit: number) =>
  topListingsQuery(db, limit, kinds);
