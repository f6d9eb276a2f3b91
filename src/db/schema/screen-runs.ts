import { date, doublePrecision, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { listings } from "./listings";

/**
 * A queued screen: an indicator, its parameters and resolution that no snapshot holds, computed for
 * every catalogue instrument by the `screen-runs` queue in shares of instruments, once a day (the
 * key holds the day): any operator and threshold is then answered from its values.
 */
export const screenRuns = pgTable("screen_runs", {
  id: serial("id").primaryKey(),
  /** indicator, canonical parameters, resolution and day: one run each. */
  key: text("key").notNull().unique(),
  indicator: text("indicator").notNull(),
  params: text("params").notNull(),
  resolution: text("resolution").notNull(),
  day: date("day", { mode: "string" }).notNull(),
  /** The shares of instruments (asset id modulo `shares`) its messages compute, one each. */
  shares: integer("shares").notNull(),
  /** The kind of key whose request started it. */
  requestedBy: text("requested_by"),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  /** When its missing shares were last sent again (a stalled run); one request claims each resend. */
  resentAt: timestamp("resent_at", { withTimezone: true }),
});

/** A computed share of a run: written once with its values, so that a redelivered message changes nothing. */
export const screenRunShares = pgTable(
  "screen_run_shares",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => screenRuns.id, { onDelete: "cascade" }),
    share: integer("share").notNull(),
    /** Instruments of the share, and those without enough bars (left out, as the synchronous screen). */
    instruments: integer("instruments").notNull(),
    skipped: integer("skipped").notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.share] })],
);

/**
 * Each instrument's last value in a run, once per instrument (a share computed again after its
 * preferred listing changed keeps the first value): its preferred listing when the share was computed.
 */
export const screenRunValues = pgTable(
  "screen_run_values",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => screenRuns.id, { onDelete: "cascade" }),
    assetId: integer("asset_id").notNull(),
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    value: doublePrecision("value").notNull(),
    /** The last daily bar the value is computed to. */
    asOf: date("as_of", { mode: "string" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.assetId] })],
);
