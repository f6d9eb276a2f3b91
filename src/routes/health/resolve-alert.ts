import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { resolveAlertById } from "../../services/monitoring/alerts";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { ResolveSchema } from "./alerts-schema";

const route = createRoute(
  withErrors(
    {
      method: "post",
      path: "/health/alerts/{alert_id}/resolve",
      "x-access": "full",
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

export function registerResolveAlert(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const input = { id: c.req.valid("param").alert_id, note: c.req.valid("query").resolution_note ?? null };
    return c.json(await resolveAlertById({ ctx: c.get("deps"), input }), 200);
  });
}
