import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getAlerts } from "../../services/monitoring/alerts";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { BoolParam } from "../params";
import { AlertsSchema } from "./alerts-schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/health/alerts",
    "x-access": "any",
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

export function registerListAlerts(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const input = {
      includeResolved: q.include_resolved,
      severity: q.severity,
      provider: q.provider_name,
      limit: q.limit,
    };
    return c.json(await getAlerts({ ctx: c.get("deps"), input }), 200);
  });
}
