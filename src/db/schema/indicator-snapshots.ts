import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { listings } from "./listings";

/**
 * The last value of each declared indicator (src/domain/indicators/snapshots.ts) for each listing,
 * written after its daily bars change: what the screener reads for a declared indicator and length.
 */
export const indicatorSnapshots = pgTable(
  "indicator_snapshots",
  {
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    indicator: text("indicator").notNull(),
    /** The parameters as canonical JSON (`{"length":14}`). */
    params: text("params").notNull(),
    /** Bars the value is computed over at most (HISTORY_BARS: the stored history, as every route computes). */
    windowBars: integer("window_bars").notNull(),
    /** The version of the indicators' arithmetic the value was computed with (SNAPSHOT_FORMULA). */
    formula: smallint("formula").notNull().default(1),
    /** The indicator's first output at the last bar; null when that is not a number. */
    value: doublePrecision("value"),
    /** False when the listing had fewer bars than the indicator needs. */
    computable: boolean("computable").notNull(),
    /** The last bar's date: the session the value is as of. */
    asOf: date("as_of", { mode: "string" }).notNull(),
    /** The first bar of the window the value was computed over. */
    windowFrom: date("window_from", { mode: "string" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Its listing's `preferred`, copied by the database (migration 0022) so that a screen reads one index. */
    preferred: boolean("preferred").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.listingId, t.indicator, t.params] }),
    index("indicator_snapshots_screen_idx").on(t.indicator, t.params, t.windowBars, t.value),
    // The screener's: each instrument once, ordered by value.
    index("indicator_snapshots_preferred_idx")
      .on(t.indicator, t.params, t.windowBars, t.value)
      .where(sql`${t.preferred}`),
  ],
);
