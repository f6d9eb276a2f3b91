import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { listings } from "./listings";

/**
 * One ingestion per listing at a time, whichever isolate asks: the holder of a listing's lease
 * fetches from the providers, everyone else waits for it to finish and takes its outcome. A lease
 * whose holder died (isolate evicted mid-fetch) expires on its own; nothing is held between statements.
 */
export const ingestLeases = pgTable("ingest_leases", {
  listingId: integer("listing_id")
    .primaryKey()
    .references(() => listings.id, { onDelete: "cascade" }),
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  /** Null while the holder works. */
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  /** The holder's report, which the requests that waited for it answer with. */
  outcome: jsonb("outcome"),
});
