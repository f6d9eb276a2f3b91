import { z } from "@hono/zod-openapi";
import { FUNDAMENTAL_PROVIDERS } from "../../domain/provider-names";
import { LOG_RETENTION_DAYS } from "../../services/database/cleanup";

const Label = z.enum(["OK", "DEGRADED", "DOWN"]);
/** Checks are kept LOG_RETENTION_DAYS (the daily retention job), so no window reaches further. */
export const DaysParam = z.coerce
  .number()
  .int()
  .min(1)
  .max(LOG_RETENTION_DAYS)
  .default(7)
  .openapi({ description: `Days back (1 to ${LOG_RETENTION_DAYS}: checks are kept ${LOG_RETENTION_DAYS} days)` });

const EntrySchema = z
  .object({
    name: z.string(),
    is_healthy: z.boolean(),
    success_rate_7d: z.number().openapi({ description: "Canary checks passed over checks made, last 7 days (0 to 1)" }),
    avg_latency_ms: z.number().nullable(),
    last_check: z.string().nullable(),
    canary_passed: z
      .boolean()
      .nullable()
      .openapi({ description: "Every check of the provider's latest canary run passed" }),
    active_alerts: z.number().int(),
    status_label: Label,
  })
  .openapi("ProviderHealthEntry");

export const ProvidersHealthSchema = z
  .object({
    checked_at: z.string(),
    total_providers: z.number().int(),
    healthy: z.number().int(),
    degraded: z.number().int(),
    down: z.number().int(),
    providers: z.array(EntrySchema),
    source: z.enum(["cache", "database"]).openapi({
      description:
        "cache: the summary of the latest canary run (within the hour; latency, last check, canary outcome null, active alerts 0); database: computed now",
    }),
  })
  .openapi("ProvidersHealth");
export type ProvidersHealthBody = z.infer<typeof ProvidersHealthSchema>;

const CheckSchema = z
  .object({
    provider_name: z.string(),
    ticker: z.string().nullable(),
    field: z.string().nullable().openapi({ description: "null: the provider could not be asked (the error says why)" }),
    value: z.number().nullable(),
    expected_min: z.number().nullable(),
    expected_max: z.number().nullable(),
    passed: z.boolean(),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    checked_at: z.string(),
  })
  .openapi("CanaryCheck");

export const ProviderHealthSchema = z
  .object({
    name: z.string(),
    status: Label.nullable().openapi({ description: "null before the provider's first canary check" }),
    is_healthy: z.boolean().nullable(),
    success_rate_7d: z.number().nullable(),
    success_rate_30d: z.number().nullable(),
    days: z.number().int(),
    avg_latency_ms: z.number().nullable(),
    last_check: z.string().nullable(),
    canary_passed: z.boolean().nullable(),
    daily_stats: z.array(
      z.object({
        date: z.string(),
        checks: z.number().int(),
        passed: z.number().int(),
        success_rate: z.number(),
        avg_latency_ms: z.number().nullable(),
      }),
    ),
    recent_failures: z.array(CheckSchema),
    schema_drift: z
      .object({
        total: z.number().int().openapi({
          description:
            "Drift verdicts in the window at the places listed (one per place, instrument and day; 50 places at most)",
        }),
        places: z.array(
          z.object({
            field: z.string().openapi({ example: "quoteSummary:earningsTrend.trend[].defaultMethodology" }),
            seen: z.number().int().openapi({ description: "Instrument-days it was seen on" }),
            last_seen: z.string(),
            reason: z.string().nullable().openapi({ example: 'expected a number, saw a string "n/a"' }),
          }),
        ),
      })
      .openapi({
        description:
          "Where the provider's answers departed from the format the service reads over the window: each cost that field only",
      }),
    active_alerts: z.number().int(),
  })
  .openapi("ProviderHealth");
export type ProviderHealthBody = z.infer<typeof ProviderHealthSchema>;

export const CanaryHistorySchema = z
  .object({ count: z.number().int(), days: z.number().int(), checks: z.array(CheckSchema) })
  .openapi("CanaryHistory");
export type CanaryHistoryBody = z.infer<typeof CanaryHistorySchema>;

export const CanaryQueuedSchema = z
  .object({ status: z.literal("queued"), provider: z.string(), message: z.string() })
  .openapi("CanaryRunQueued");
export type CanaryQueuedBody = z.infer<typeof CanaryQueuedSchema>;

export const ProviderNameParam = z.enum(FUNDAMENTAL_PROVIDERS);
