import { date, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { FindingEvidence, FindingKind } from "../../domain/price-sanity";
import { listings } from "./listings";

/**
 * What the price sanity net (domain/price-sanity) found in a listing's stored bars: one row per
 * session and kind, rewritten by each ingestion's check; the stored prices themselves are never
 * changed by it (GET /eod?repair=true applies the repairable kinds to its answer only).
 */
export const priceFindings = pgTable(
  "price_findings",
  {
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    date: date("date").notNull(),
    kind: text("kind").$type<FindingKind>().notNull(),
    evidence: jsonb("evidence").$type<FindingEvidence>().notNull(),
    foundAt: timestamp("found_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.date, t.kind] }), index("price_findings_kind_idx").on(t.kind)],
);
