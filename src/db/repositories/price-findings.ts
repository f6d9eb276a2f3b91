import { and, asc, desc, eq, gte, inArray, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { BAR_KINDS, type Finding, type FindingKind } from "../../domain/price-sanity";
import { inOneTransaction } from "../batch";
import type { Db } from "../client";
import { assets, listings, priceFindings } from "../schema";

/** Rows per INSERT (4 parameters a row). */
const BATCH = 1000;
/**
 * Findings kept per listing and check: a listing whose every bar is wrong needs no more to be seen
 * (the count of the check says how many there were).
 */
export const FINDINGS_KEPT = 2000;

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

/** A listing's stored findings of the kinds the stored bars tell (BAR_KINDS): one statement, for a batch. */
export const barFindingsQuery = (db: Db, listingId: number) =>
  db
    .select({ date: priceFindings.date, kind: priceFindings.kind, evidence: priceFindings.evidence })
    .from(priceFindings)
    .where(and(eq(priceFindings.listingId, listingId), inArray(priceFindings.kind, [...BAR_KINDS])));

/** The findings a check keeps of what it found (BAR_KINDS, FINDINGS_KEPT at most). */
export const keptBarFindings = (findings: readonly Finding[]) =>
  findings.filter((f) => BAR_KINDS.includes(f.kind)).slice(0, FINDINGS_KEPT);

/** Whether stored findings are exactly `kept` (then a check need not write them again). */
export function sameFindings(stored: readonly Finding[], kept: readonly Finding[]): boolean {
  const key = (f: Finding) => `${f.date}|${f.kind}|${JSON.stringify(f.evidence, Object.keys(f.evidence).sort())}`;
  const a = new Set(stored.map(key));
  return a.size === kept.length && kept.every((f) => a.has(key(f)));
}

/**
 * The statements that replace a listing's findings of the kinds the stored bars tell (BAR_KINDS)
 * with `kept`, for one transaction: a finding no longer true goes, one still true is kept as first
 * found. The same bars give the same rows, whoever writes them.
 */
export function replaceBarFindings(db: Db, listingId: number, kept: readonly Finding[], at: Date) {
  const stillTrue: SQL = kept.length
    ? sql`(${priceFindings.date}, ${priceFindings.kind}) NOT IN (${sql.join(
        kept.map((f) => sql`(${f.date}::date, ${f.kind})`),
        sql`, `,
      )})`
    : sql`true`;
  return [
    db
      .delete(priceFindings)
      .where(and(eq(priceFindings.listingId, listingId), inArray(priceFindings.kind, [...BAR_KINDS]), stillTrue)),
    ...upserts(db, listingId, kept, at),
  ];
}

/** Adds findings of kinds found elsewhere than in the bars (the canary's, an ingestion's events); idempotent. */
export async function saveFindings(db: Db, listingId: number, findings: readonly Finding[], at: Date) {
  await inOneTransaction(db, upserts(db, listingId, findings.slice(0, FINDINGS_KEPT), at));
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
    db
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
      .groupBy(listings.id, listings.ticker, listings.exchange, assets.isin)
      .orderBy(desc(sql`count(*)`), asc(listings.ticker), asc(listings.id))
      .limit(limit),
    db.select({ n: sql<number>`count(DISTINCT ${priceFindings.listingId})::int` }).from(priceFindings),
  ]);
  return { byKind, top, listings: listingsWith[0]?.n ?? 0 };
}
