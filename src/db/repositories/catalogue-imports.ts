import { sql } from "drizzle-orm";
import type { ImportItem, ImportLine } from "../../domain/catalogue-import";
import { arrayLiteral, inOneTransaction } from "../batch";
import type { Db } from "../client";
import { catalogueImportLines, catalogueImports, type ImportOutcome } from "../schema";

/**
 * Records an import and its lines (unreadable lines already refused) in one transaction, unless the
 * same import (`digest`) is running: then that one is answered. An advisory lock on the digest
 * makes twenty identical requests at once record one. Answers its id and whether this call made it.
 */
export async function insertImport(
  db: Db,
  imp: { lines: readonly ImportLine[]; digest: string; ingest: boolean; requestedBy: string | null; at: Date },
): Promise<{ id: number; created: boolean }> {
  const at = imp.at.toISOString();
  const rows = JSON.stringify(
    imp.lines.map((l) => ({
      line: l.line,
      asked: l.asked,
      item: "item" in l ? l.item : null,
      outcome: "item" in l ? "queued" : "refused",
      reason: "refused" in l ? l.refused : null,
    })),
  );
  const [, made, running] = await inOneTransaction(db, [
    db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`import:${imp.digest}`}))`),
    db.execute(sql`
      WITH imp AS (
        INSERT INTO ${catalogueImports} (lines, digest, ingest, requested_by, created_at, finished_at)
        SELECT ${imp.lines.length}, ${imp.digest}, ${imp.ingest}, ${imp.requestedBy}, ${at},
               ${imp.lines.every((l) => "refused" in l) ? at : null}
        WHERE NOT EXISTS (SELECT 1 FROM ${catalogueImports} WHERE digest = ${imp.digest} AND finished_at IS NULL)
        RETURNING id
      ), lines AS (
        INSERT INTO ${catalogueImportLines} (import_id, line, asked, item, outcome, reason, updated_at)
        SELECT imp.id, x.line, x.asked, x.item, x.outcome, x.reason, ${at}
        FROM imp, jsonb_to_recordset(${rows}::jsonb) AS x(line int, asked text, item jsonb, outcome text, reason text)
        RETURNING 1
      )
      SELECT id FROM imp, (SELECT count(*) FROM lines) AS written`),
    db.execute(sql`
      SELECT id FROM ${catalogueImports} WHERE digest = ${imp.digest} AND finished_at IS NULL ORDER BY id DESC LIMIT 1`),
  ]);
  const createdId = (made as { rows: { id: number }[] }).rows[0]?.id;
  if (createdId !== undefined) return { id: createdId, created: true };
  const runningId = (running as { rows: { id: number }[] }).rows[0]?.id;
  if (runningId === undefined) throw new Error("the import was not recorded");
  return { id: runningId, created: false };
}

export interface QueuedLine {
  line: number;
  item: ImportItem;
  attempts: number;
}

/**
 * The lines among `lines` still to be worked (settled ones are skipped: a redelivery repeats
 * nothing), and whether their import ingests prices at once. Each is touched as it is taken: the
 * import is alive (see `staleLines`).
 */
export async function queuedLines(
  db: Db,
  importId: number,
  lines: readonly number[],
  at: Date,
): Promise<{ ingest: boolean; lines: QueuedLine[] }> {
  const result = await db.execute<{ line: number; item: ImportItem; attempts: number; ingest: boolean }>(sql`
    UPDATE ${catalogueImportLines} l SET updated_at = ${at.toISOString()}
    FROM ${catalogueImports} i
    WHERE i.id = l.import_id AND l.import_id = ${importId} AND l.line = ANY(${arrayLiteral(lines)}::int[])
      AND l.outcome = 'queued'
    RETURNING l.line, l.item, l.attempts, i.ingest`);
  const rows = [...result.rows].sort((a, b) => a.line - b.line);
  return {
    ingest: rows[0]?.ingest ?? false,
    lines: rows.map((r) => ({ line: r.line, item: r.item, attempts: r.attempts })),
  };
}

/**
 * Settles a line (only while it is queued: two deliveries of one line settle it once) or, with
 * outcome `queued`, counts a failed attempt; closes the import when no line is left. With `once`,
 * an `added` line is `known` when another line of the import already counts its instrument as
 * added (two lines naming one new instrument, worked side by side, count it once). Answers whether
 * this call finished the import.
 */
export async function settleLine(
  db: Db,
  s: {
    importId: number;
    line: number;
    outcome: ImportOutcome;
    reason: string | null;
    isin: string | null;
    at: Date;
    once?: boolean;
  },
): Promise<boolean> {
  const at = s.at.toISOString();
  // The import's row first: two consumers settling its last two lines at once take turns, so the
  // second sees the first's line settled and one of them closes the import.
  const [, , finished] = await inOneTransaction(db, [
    db.execute(sql`SELECT id FROM ${catalogueImports} WHERE id = ${s.importId} FOR UPDATE`),
    db.execute(sql`
      UPDATE ${catalogueImportLines}
      SET outcome = CASE WHEN ${s.once === true} AND EXISTS (
            SELECT 1 FROM ${catalogueImportLines} o
            WHERE o.import_id = ${s.importId} AND o.isin = ${s.isin} AND o.outcome = 'added' AND o.line <> ${s.line})
          THEN 'known' ELSE ${s.outcome} END,
        reason = ${s.reason}, isin = ${s.isin}, attempts = attempts + 1, updated_at = ${at}
      WHERE import_id = ${s.importId} AND line = ${s.line} AND outcome = 'queued'`),
    db.execute(sql`
      UPDATE ${catalogueImports} SET finished_at = ${at}
      WHERE id = ${s.importId} AND finished_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM ${catalogueImportLines} WHERE import_id = ${s.importId} AND outcome = 'queued')
      RETURNING id`),
  ]);
  return ((finished as { rows: unknown[] }).rows.length ?? 0) > 0;
}

export interface ImportState {
  id: number;
  lines: number;
  ingest: boolean;
  createdAt: Date;
  finishedAt: Date | null;
  counts: Record<ImportOutcome, number>;
  /** Lines in line order from `offset`, at most `limit`, optionally of one outcome. */
  page: { line: number; asked: string; outcome: ImportOutcome; reason: string | null; isin: string | null }[];
}

/** An import, its counts by outcome and a page of its lines, in one round trip; null when unknown. */
export async function readImport(
  db: Db,
  id: number,
  page: { offset: number; limit: number; outcome: ImportOutcome | null },
): Promise<ImportState | null> {
  const [head, counts, lines] = await inOneTransaction(db, [
    db.execute(sql`SELECT id, lines, ingest, created_at, finished_at FROM ${catalogueImports} WHERE id = ${id}`),
    db.execute(sql`
      SELECT outcome, count(*)::int AS n FROM ${catalogueImportLines} WHERE import_id = ${id} GROUP BY outcome`),
    db.execute(sql`
      SELECT line, asked, outcome, reason, isin FROM ${catalogueImportLines}
      WHERE import_id = ${id} ${page.outcome ? sql`AND outcome = ${page.outcome}` : sql``}
      ORDER BY line OFFSET ${page.offset} LIMIT ${page.limit}`),
  ]);
  const h = (
    head as { rows: { id: number; lines: number; ingest: boolean; created_at: string; finished_at: string | null }[] }
  ).rows[0];
  if (!h) return null;
  const byOutcome: Record<ImportOutcome, number> = { queued: 0, added: 0, known: 0, refused: 0, failed: 0 };
  for (const r of (counts as { rows: { outcome: ImportOutcome; n: number }[] }).rows) byOutcome[r.outcome] = r.n;
  return {
    id: h.id,
    lines: h.lines,
    ingest: h.ingest,
    createdAt: new Date(h.created_at),
    finishedAt: h.finished_at ? new Date(h.finished_at) : null,
    counts: byOutcome,
    page: (lines as { rows: ImportState["page"] }).rows,
  };
}

/**
 * Queued lines of imports in which nothing has moved since `before` (no line taken or settled:
 * their messages were lost with a stopped stack, a purged queue, a send that failed), oldest
 * first, at most `max`; each is touched, so the next resume leaves it to the message about to be
 * sent. A long import whose consumers are busy is alive and left alone, however long its backlog.
 */
export async function staleLines(
  db: Db,
  before: Date,
  at: Date,
  max: number,
): Promise<{ importId: number; line: number }[]> {
  const result = await db.execute<{ import_id: number; line: number }>(sql`
    UPDATE ${catalogueImportLines} l SET updated_at = ${at.toISOString()}
    FROM (
      SELECT q.import_id, q.line FROM ${catalogueImportLines} q
      JOIN ${catalogueImports} i ON i.id = q.import_id AND i.finished_at IS NULL
      WHERE q.outcome = 'queued'
        AND NOT EXISTS (
          SELECT 1 FROM ${catalogueImportLines} x WHERE x.import_id = q.import_id AND x.updated_at >= ${before.toISOString()})
      ORDER BY q.import_id, q.line LIMIT ${max}
      FOR UPDATE OF q SKIP LOCKED
    ) s
    WHERE l.import_id = s.import_id AND l.line = s.line
    RETURNING l.import_id, l.line`);
  return result.rows.map((r) => ({ importId: r.import_id, line: r.line }));
}
