import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { listings } from "./listings";

/**
 * A refresh of the catalogue's daily bars: started by the five-minute trigger for the venues whose
 * session is due, or on request; its listings are handed to the `catalogue-refresh` queue, and it
 * is finished when none is left queued. At most one runs at a time (a partial unique index on the
 * unfinished run).
 */
export const catalogueRefreshRuns = pgTable(
  "catalogue_refresh_runs",
  {
    id: serial("id").primaryKey(),
    /** `cron` (venues' closes), `request` (POST /catalogue/refresh) or `first_run` (a new instance's whole catalogue). */
    trigger: text("trigger", { enum: ["cron", "request", "first_run"] }).notNull(),
    /** The venues refreshed, with the session each was refreshed to: `{"XETRA": "2026-11-27"}`. */
    sessions: jsonb("sessions").$type<Record<string, string>>().notNull(),
    /** Venues a scheduled run left out, with why (a holiday, refreshed already, not closed yet). */
    skipped: jsonb("skipped").$type<Record<string, string>>().notNull().default({}),
    queued: integer("queued").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("catalogue_refresh_one_running_uq").on(sql`(true)`).where(sql`${t.finishedAt} IS NULL`),
    index("catalogue_refresh_runs_started_idx").on(t.startedAt),
  ],
);

/** One listing of a run: queued until its consumer records what the refresh did (a retry overwrites, never adds). */
export const catalogueRefreshItems = pgTable(
  "catalogue_refresh_items",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => catalogueRefreshRuns.id, { onDelete: "cascade" }),
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    /** `queued`, then `refreshed` (bars written), `unchanged` (nothing new) or `failed`. */
    outcome: text("outcome", { enum: ["queued", "refreshed", "unchanged", "failed"] }).notNull(),
    /** The session the listing was refreshed to (its venue's last closed session). */
    session: text("session").notNull(),
    /** Why it failed (the providers' errors), or why the last attempt will be retried. */
    reason: text("reason"),
    attempts: integer("attempts").notNull().default(0),
    barsWritten: integer("bars_written").notNull().default(0),
    /** Requests the ingestion made of the providers. */
    providerRequests: integer("provider_requests").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.listingId] }),
    index("catalogue_refresh_items_outcome_idx").on(t.runId, t.outcome),
  ],
);
