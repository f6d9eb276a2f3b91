import { z } from "@hono/zod-openapi";

const AlertSchema = z
  .object({
    alert_id: z.number().int(),
    severity: z.enum(["warning", "critical"]),
    type: z.enum(["canary_failed", "high_outlier_rate"]),
    provider_name: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
    created_at: z.string(),
    is_resolved: z.boolean(),
    resolved_at: z.string().nullable(),
    resolution_note: z.string().nullable(),
  })
  .openapi("Alert");

export const AlertsSchema = z.object({ count: z.number().int(), alerts: z.array(AlertSchema) }).openapi("Alerts");
export type AlertsBody = z.infer<typeof AlertsSchema>;

export const ResolveSchema = z
  .union([
    z.object({
      status: z.literal("resolved"),
      alert_id: z.number().int(),
      resolved_at: z.string().openapi({ example: "2026-11-26T12:00:00.000+00:00" }),
    }),
    z.object({ status: z.literal("already_resolved") }),
  ])
  .openapi("AlertResolution");
export type ResolveBody = z.infer<typeof ResolveSchema>;
