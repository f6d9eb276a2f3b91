import { bigserial, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** One row per API request, written after the answer. */
export const usageLogs = pgTable(
  "usage_logs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    method: text("method").notNull(),
    /** Route template (`/eod/:ticker`), so requests group by route. */
    route: text("route").notNull(),
    /** Upper-cased ticker path parameter when the route has one. */
    ticker: text("ticker"),
    keyKind: text("key_kind", { enum: ["full", "read_only", "none"] }).notNull(),
    /** The key's id (a managed key's `key_…`, a settings key's `cfg_…`), never the key. */
    keyId: text("key_id"),
    status: integer("status").notNull(),
    latencyMs: integer("latency_ms").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The entry's own id, given when the request ends: a redelivered queue message is not written twice. */
    entryId: text("entry_id"),
  },
  (t) => [
    index("usage_logs_created_idx").on(t.createdAt),
    index("usage_logs_ticker_idx").on(t.ticker),
    index("usage_logs_key_created_idx").on(t.keyId, t.createdAt),
    uniqueIndex("usage_logs_entry_uq").on(t.entryId),
  ],
);

/**
 * Requests without a valid key: counted per route and status, never a row each (an unauthenticated
 * caller cannot fill the table). One row per count as a producer sent it; totals are sums.
 */
export const usageAnonymous = pgTable(
  "usage_anonymous",
  {
    /** The count's id (a producer's send, or a lone entry's id): a redelivered message adds nothing twice. */
    batch: text("batch").notNull(),
    route: text("route").notNull(),
    status: integer("status").notNull(),
    requests: integer("requests").notNull(),
    /** The first counted request's time. */
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.batch, t.route, t.status] }), index("usage_anonymous_window_idx").on(t.windowStart)],
);
