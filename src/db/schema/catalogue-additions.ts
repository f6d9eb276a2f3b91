import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * What no provider knew when it was asked to join the catalogue (an ISIN, or a symbol on a venue),
 * with why: asked again only after a day, so a read repeated by a client costs no provider calls.
 */
export const catalogueMisses = pgTable("catalogue_misses", {
  /** `isin:<ISIN>` or `symbol:<SYMBOL>[@<EXCHANGE>]`. */
  query: text("query").primaryKey(),
  status: integer("status").notNull(),
  reason: text("reason").notNull(),
  checkedAt: timestamp("checked_at", { withTimezone: true }).notNull(),
});

/** Attempts to add instruments per key and minute: one atomic upsert counts and bounds them. */
export const catalogueAdditionBudget = pgTable(
  "catalogue_addition_budget",
  {
    keyFingerprint: text("key_fingerprint").notNull(),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    spent: integer("spent").notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyFingerprint, t.minute] })],
);
