import { integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { listings } from "./listings";

/**
 * One ingestion per listing at a time, whichever isolate asks: the holder of a listing's lease
 * fetches from the providers, everyone else waits for it to finish and takes its outcome. A lease
 * whose holder died (isolate evicted mid-fetch) expires on its own; nothing is held between statements.
 */
export const ingestLeases = pgTable(
  "ingest_leases",
  {
    /** What is done under the lease: `eod` (price ingestion), `insider` (reading new Form 4 filings). */
    scope: text("scope").notNull().default("eod"),
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    holder: text("holder").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Null while the holder works. */
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** The holder's report, which the requests that waited for it answer with. */
    outcome: jsonb("outcome"),
  },
  (t) => [primaryKey({ columns: [t.scope, t.listingId] })],
);
