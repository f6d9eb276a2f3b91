import { digest } from "../../../auth";
import { insertImport, readImport } from "../../../db/repositories/catalogue-imports";
import {
  type ImportLine,
  type ImportMessage,
  importMessages,
  MAX_IMPORT_LINES,
  MESSAGES_PER_SEND,
} from "../../../domain/catalogue-import";
import { BadRequestError, ServiceError } from "../../../domain/errors";
import type { Context } from "../../../platform/context";
import type { ImportView } from "./get-import";
import { importView } from "./get-import";

const sha256 = async (text: string) => [...(await digest(text))].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Hands lines of imports to the queue, MESSAGES_PER_SEND messages per call (the Queues limit). */
export async function sendImportLines(
  queue: Queue<ImportMessage>,
  lines: readonly { importId: number; line: number }[],
): Promise<number> {
  const byImport = new Map<number, number[]>();
  for (const l of lines) byImport.set(l.importId, [...(byImport.get(l.importId) ?? []), l.line]);
  const messages = [...byImport].flatMap(([id, nos]) => importMessages(id, nos));
  for (let i = 0; i < messages.length; i += MESSAGES_PER_SEND)
    await queue.sendBatch(messages.slice(i, i + MESSAGES_PER_SEND).map((body) => ({ body })));
  return messages.length;
}

/**
 * POST /assets/import: records the import and its lines (those that cannot be read refused at once,
 * with why) and hands the others to the `catalogue-import` queue. Lines that never reach the queue
 * (it refused mid-way) stay queued in the database, where the five-minute resume finds them. The
 * same body again while its import runs answers that import.
 */
export async function startImport(
  ctx: Context,
  input: { lines: readonly ImportLine[]; ingest: boolean },
): Promise<ImportView> {
  const { lines } = input;
  if (lines.length === 0) throw new BadRequestError("the import holds no line");
  if (lines.length > MAX_IMPORT_LINES)
    throw new BadRequestError(`the import holds ${lines.length} lines; at most ${MAX_IMPORT_LINES} per import`);
  const queue = ctx.importQueue;
  if (!queue) throw new ServiceError("UPSTREAM_UNAVAILABLE", "The catalogue-import queue is not bound (wrangler.toml)");
  const digest = await sha256(JSON.stringify({ lines, ingest: input.ingest }));
  const { id, created } = await insertImport(ctx.db, {
    lines,
    digest,
    ingest: input.ingest,
    requestedBy: ctx.caller?.kind ?? null,
    at: ctx.clock.now(),
  });
  // The same import asked again while it runs (a client's retry) is that import: nothing is sent twice.
  if (created) {
    const queued = lines.filter((l) => "item" in l).map((l) => ({ importId: id, line: l.line }));
    try {
      await sendImportLines(queue, queued);
    } catch (err) {
      console.warn("catalogue import", id, "not all queued; the resume job sends the rest:", String(err));
    }
  }
  const state = await readImport(ctx.db, id, { offset: 0, limit: 0, outcome: null });
  if (!state) throw new Error(`import ${id} was recorded but cannot be read back`);
  return importView(state);
}
