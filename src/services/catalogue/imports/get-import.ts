import { type ImportState, readImport } from "../../../db/repositories/catalogue-imports";
import type { ImportOutcome } from "../../../db/schema";
import { NotFoundError } from "../../../domain/errors";
import type { Context } from "../../../platform/context";

export interface ImportView {
  id: number;
  status: "running" | "finished";
  lines: number;
  ingest: boolean;
  created_at: string;
  finished_at: string | null;
  counts: Record<ImportOutcome, number>;
  page: { offset: number; limit: number; outcome: ImportOutcome | null };
  line_results: { line: number; asked: string; outcome: ImportOutcome; reason: string | null; isin: string | null }[];
}

export function importView(
  s: ImportState,
  page: ImportView["page"] = { offset: 0, limit: 0, outcome: null },
): ImportView {
  return {
    id: s.id,
    status: s.finishedAt ? "finished" : "running",
    lines: s.lines,
    ingest: s.ingest,
    created_at: s.createdAt.toISOString(),
    finished_at: s.finishedAt?.toISOString() ?? null,
    counts: s.counts,
    page,
    line_results: s.page,
  };
}

/** GET /assets/import/{id}: the import's counts by outcome and a page of its lines (each with why). */
export async function getImport(
  ctx: Context,
  input: { id: number; offset: number; limit: number; outcome: ImportOutcome | null },
): Promise<ImportView> {
  const page = { offset: input.offset, limit: input.limit, outcome: input.outcome };
  const state = await readImport(ctx.db, input.id, page);
  if (!state) throw new NotFoundError("Import", String(input.id));
  return importView(state, page);
}
