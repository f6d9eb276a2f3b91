import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getAlerts, resolveAlertById } from "../../services/monitoring/alerts";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { BoolParam } from "../params";

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

const listRoute = createRoute(
  withErrors({
    method: "get",
    path: "/health/alerts",
    tags: ["Monitoring"],
    description:
      "Alerts raised on the data providers, newest first: `canary_failed` (a canary check failed) and `high_outlier_rate` (a provider's 7-day success rate fell under ALERT_SUCCESS_RATE_WARNING or ALERT_SUCCESS_RATE_CRITICAL, 0.85 and 0.70 by default). Only open alerts are listed unless `include_resolved=true`; `severity` (`warning` or `critical`) and `provider_name` filter, and `limit` caps the list (default 50, at most 1000). Any key.",
    summary: "Alerts on the data providers, newest first (open ones unless include_resolved)",
    security: keyed,
    request: {
      query: z.object({
        severity: z.enum(["warning", "critical"]).optional(),
        provider_name: textParam(100).optional(),
        include_resolved: BoolParam,
        limit: z.coerce.number().int().min(1).max(1000).default(50),
      }),
    },
    responses: {
      200: { description: "The alerts", content: { "application/json": { schema: AlertsSchema } } },
    },
  }),
);

const resolveRoute = createRoute(
  withErrors(
    {
      method: "post",
      path: "/health/alerts/{alert_id}/resolve",
      tags: ["Monitoring"],
      description:
        'Marks an alert resolved, keeping the optional `resolution_note` given in the query string (the request has no body), and answers `{status: "resolved", alert_id, resolved_at}` with a timestamp carrying its offset. Resolving an alert that is already resolved changes nothing and answers `{status: "already_resolved"}`; an unknown id is a 404. Needs a full-access key (a read-only key gets 403).',
      summary: "Resolves an alert with a note (full-access)",
      security: keyed,
      // Alerts come from the checks: the example's alert does not exist, and 20 such requests change nothing.
      "x-example-status": 404,
      request: {
        params: z.object({
          // The example names no alert a fresh instance has (ids count up from 1).
          alert_id: z.coerce
            .number()
            .int()
            .min(1)
            .max(2_147_483_647)
            .openapi({ example: 2_147_483_647, type: "integer" }),
        }),
        query: z.object({ resolution_note: textParam(1000).optional() }),
      },
      responses: {
        200: {
          description: "Resolved now, or already resolved",
          content: { "application/json": { schema: ResolveSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerAlerts(api: OpenAPIHono<AppEnv>) {
  api.openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const input = {
      includeResolved: q.include_resolved,
      severity: q.severity,
      provider: q.provider_name,
      limit: q.limit,
    };
    return c.json(await getAlerts({ ctx: c.get("deps"), input }), 200);
  });
  api.openapi(resolveRoute, async (c) => {
    const input = { id: c.req.valid("param").alert_id, note: c.req.valid("query").resolution_note ?? null };
    return c.json(await resolveAlertById({ ctx: c.get("deps"), input }), 200);
  });
  return api;
}
