import { z } from "zod";
/** One request's usage row, as the middleware makes it and the queue carries it. */
export const UsageEntrySchema = z.object({
  /** Given when the request ends; the row's idempotency key. */
  id: z.string().min(1).max(64),
  method: z.string().max(16),
  route: z.string().max(200),
  ticker: z.string().max(32).nullable(),
  keyKind: z.enum(["full", "read_only", "none"]),
  status: z.number().int(),
  latencyMs: z.number().int(),
  /** When the request came, on the service's clock (retention and the 24-hour counts read this clock too). */
  createdAt: z.coerce.date(),
});

export type UsageEntry = z.infer<typeof UsageEntrySchema>;

/**
 * One queue message: the entries one send carries (at most SEND_BATCH, about 20 KB, well under a
 * message's 128 KB). Queues bill and handle each message: one per send instead of one per entry.
 */
export interface UsageMessage {
  entries: UsageEntry[];
}

/**
 * The entries of one queue message: a UsageMessage, or a lone entry (how each entry travelled
 * before entries were packed, so messages still queued at a deploy are written too). Entries that do
 * not parse are counted as invalid.
 */
export function entriesOf(body: unknown): { entries: UsageEntry[]; invalid: number } {
  const packed = z.object({ entries: z.array(z.unknown()) }).safeParse(body);
  const candidates = packed.success ? packed.data.entries : [body];
  const entries: UsageEntry[] = [];
  for (const candidate of candidates) {
    const parsed = UsageEntrySchema.safeParse(candidate);
    if (parsed.success) entries.push(parsed.data);
  }
  return { entries, invalid: candidates.length - entries.length };
}
