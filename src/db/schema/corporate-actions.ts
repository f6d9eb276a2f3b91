import { date, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { AdjustmentMismatch } from "../../domain/corporate-actions";
import type { StoredPrecision } from "../../domain/provider-precision";
import { listings } from "./listings";

/** A listing's cash dividends by ex-date, from the delayed provider's chart events (stored with the prices). */
export const dividends = pgTable(
  "dividends",
  {
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    exDate: date("ex_date").notNull(),
    /** Per share, in the listing's currency (a pence line's amounts are scaled as its prices are). */
    amount: numeric("amount", { precision: 20, scale: 8 }).notNull(),
    source: text("source").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.exDate] })],
);

/** A listing's share splits by date: `numerator` new shares for `denominator` old (4:1). */
export const splits = pgTable(
  "splits",
  {
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    date: date("date").notNull(),
    numerator: numeric("numerator", { precision: 20, scale: 8 }).notNull(),
    denominator: numeric("denominator", { precision: 20, scale: 8 }).notNull(),
    source: text("source").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.date] })],
);

/**
 * The last check of a listing's stored adjusted closes against its stored dividends and splits
 * (domain/corporate-actions), written after each ingestion that changed either: one row a listing.
 */
export const adjustmentChecks = pgTable("adjustment_checks", {
  listingId: integer("listing_id")
    .primaryKey()
    .references(() => listings.id, { onDelete: "cascade" }),
  checkedAt: timestamp("checked_at", { withTimezone: true }).notNull(),
  bars: integer("bars").notNull(),
  dividends: integer("dividends").notNull(),
  splits: integer("splits").notNull(),
  mismatches: integer("mismatches").notNull(),
  /** The first few sessions where they disagree, oldest first. */
  detail: jsonb("detail").$type<AdjustmentMismatch[]>().notNull(),
  /**
   * The precision the listing's delayed-provider bars are stored at: `full` once its whole stored
   * span was written at the provider's precision; rows checked before that was kept are
   * `price_hint` (rounded), which the next ingestion asks for whole again to repair.
   */
  precision: text("precision").$type<StoredPrecision>().notNull().default("price_hint"),
});
