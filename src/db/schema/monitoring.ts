import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** One row per provider call observed by the canary or by a request. */
export const providerChecks = pgTable(
  "provider_checks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    providerName: text("provider_name").notNull(),
    checkType: text("check_type", { enum: ["canary", "request"] }).notNull(),
    ticker: text("ticker"),
    field: text("field"),
    success: boolean("success").notNull(),
    latencyMs: integer("latency_ms"),
    value: numeric("value"),
    expectedMin: numeric("expected_min"),
    expectedMax: numeric("expected_max"),
    error: text("error"),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("provider_checks_provider_time_idx").on(t.providerName, t.checkedAt)],
);

/**
 * Outcome of the validation layer for one fundamentals value: one row per provider, instrument,
 * field and day (a later check the same day replaces it), so retries never count twice.
 */
export const validationResults = pgTable(
  "validation_results",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    providerName: text("provider_name").notNull(),
    /** The catalogue ticker the value was about. */
    ticker: text("ticker").notNull(),
    field: text("field").notNull(),
    /** The value as the provider sent it (before any unit conversion). */
    value: numeric("value"),
    status: text("status", { enum: ["valid", "outlier", "out_of_range", "null", "schema_drift"] }).notNull(),
    reason: text("reason"),
    validatedOn: date("validated_on").notNull(),
    validatedAt: timestamp("validated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("validation_results_time_idx").on(t.validatedAt),
    uniqueIndex("validation_results_day_uq").on(t.providerName, t.ticker, t.field, t.validatedOn),
  ],
);

export const alerts = pgTable(
  "alerts",
  {
    id: serial("id").primaryKey(),
    severity: text("severity", { enum: ["warning", "critical"] }).notNull(),
    type: text("type", { enum: ["canary_failed", "high_outlier_rate"] }).notNull(),
    providerName: text("provider_name").notNull(),
    message: text("message").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    isResolved: boolean("is_resolved").notNull().default(false),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    resolutionNote: text("resolution_note"),
  },
  (t) => [
    index("alerts_open_idx").on(t.isResolved, t.providerName),
    // One open alert per provider and type: a problem already open is not opened twice.
    uniqueIndex("alerts_one_open_uq").on(t.providerName, t.type).where(sql`${t.isResolved} = false`),
  ],
);
