import { z } from "zod";
/** One request's usage row, as the middleware makes it and the queue carries it. */
export const UsageEntrySchema = z.object({
  /** Given when the request ends; the row's idempotency key. */
  id: z.string().min(1).max(64),
  method: z.string().max(16),
  route: z.string().max(200),
  ticker: z.string().max(32).nullable(),
  keyKind: z.enum(["full", "read_only", "none"]),
  /** The key's id (`key_…`, `cfg_…`), never the key; absent in entries queued before keys had ids. */
  keyId: z.string().max(64).nullable().optional(),
  status: z.number().int(),
  latencyMs: z.number().int(),
  /** When the request came, on the service's clock (retention and the 24-hour counts read this clock too). */
  createdAt: z.coerce.date(),
});

export type UsageEntry = z.infer<typeof UsageEntrySchema>;

/**
 * Requests without a valid key, counted instead of logged one by one (an unauthenticated caller
 * cannot fill the table): how many answered on a route with a status, from `windowStart` on.
 */
export const AnonymousCountSchema = z.object({
  /** The count's own id, given once (a producer's send, a lone entry's id): a redelivery adds nothing twice. */
  batch: z.string().min(1).max(64),
  route: z.string().max(200),
  status: z.number().int(),
  requests: z.number().int().positive(),
  /** The first counted request's time, on the service's clock. */
  windowStart: z.coerce.date(),
});

export type AnonymousCount = z.infer<typeof AnonymousCountSchema>;

/**
 * One queue message: the entries one send carries (at most SEND_BATCH, about 20 KB, well under a
 * message's 128 KB) and the counts of keyless requests. Queues bill and handle each message: one per
 * send instead of one per entry.
 */
export interface UsageMessage {
  entries: UsageEntry[];
  anonymous?: AnonymousCount[];
}

/**
 * Entries split into those logged one by one (a valid key) and the keyless ones, counted per route
 * and status under `batch`.
 * @example splitAnonymous([keyed, keyless, keyless], "b1").counts // [{ batch: "b1", requests: 2, ... }]
 */
export function splitAnonymous(
  entries: readonly UsageEntry[],
  batch: string,
): { keyed: UsageEntry[]; counts: AnonymousCount[] } {
  const keyed: UsageEntry[] = [];
  const counts = new Map<string, AnonymousCount>();
  for (const e of entries) {
    if (e.keyKind !== "none") {
      keyed.push(e);
      continue;
    }
    const group = `${e.status} ${e.route}`;
    const count = counts.get(group);
    if (!count) counts.set(group, { batch, route: e.route, status: e.status, requests: 1, windowStart: e.createdAt });
    else {
      count.requests += 1;
      if (e.createdAt < count.windowStart) count.windowStart = e.createdAt;
    }
  }
  return { keyed, counts: [...counts.values()] };
}

/**
 * What one queue message carries: a UsageMessage, or a lone entry (how each entry travelled before
 * entries were packed, so messages still queued at a deploy are written too). A keyless entry (sent
 * before keyless requests were counted) becomes a count under its own id. What does not parse is
 * counted as invalid.
 */
export function usageOf(body: unknown): { entries: UsageEntry[]; counts: AnonymousCount[]; invalid: number } {
  const packed = z
    .object({ entries: z.array(z.unknown()), anonymous: z.array(z.unknown()).optional() })
    .safeParse(body);
  const candidates = packed.success ? packed.data.entries : [body];
  const entries: UsageEntry[] = [];
  const counts: AnonymousCount[] = [];
  let invalid = 0;
  for (const candidate of candidates) {
    const parsed = UsageEntrySchema.safeParse(candidate);
    if (!parsed.success) invalid += 1;
    else if (parsed.data.keyKind === "none") counts.push(...splitAnonymous([parsed.data], parsed.data.id).counts);
    else entries.push(parsed.data);
  }
  for (const candidate of packed.success ? (packed.data.anonymous ?? []) : []) {
    const parsed = AnonymousCountSchema.safeParse(candidate);
    if (parsed.success) counts.push(parsed.data);
    else invalid += 1;
  }
  return { entries, counts, invalid };
}
