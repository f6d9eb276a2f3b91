import { staleLines } from "../../../db/repositories/catalogue-imports";
import type { Context } from "../../../platform/context";
import { sendImportLines } from "./start-import";

/** How long a queued line may go untouched before its message counts as lost (a consumer's retries take less). */
export const LOST_AFTER_MS = 15 * 60_000;
/** Lines sent again per tick: 2,000 lines are 400 messages, four sends. */
const MAX_PER_TICK = 2_000;

/**
 * The five-minute resume of imports: queued lines untouched for LOST_AFTER_MS (their messages lost
 * with a stopped stack, a purged queue, a send that failed) are handed to the queue again. A line
 * whose first message was only slow is settled once all the same (settleLine).
 */
export async function resumeImports(ctx: Context): Promise<{ lines: number; messages: number }> {
  const queue = ctx.importQueue;
  if (!queue) return { lines: 0, messages: 0 };
  const now = ctx.clock.now();
  const lost = await staleLines(ctx.db, new Date(now.getTime() - LOST_AFTER_MS), now, MAX_PER_TICK);
  if (lost.length === 0) return { lines: 0, messages: 0 };
  return { lines: lost.length, messages: await sendImportLines(queue, lost) };
}
