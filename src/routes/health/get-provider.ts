import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getProviderHealth } from "../../services/monitoring/provider-health";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { DaysParam, ProviderHealthSchema } from "./monitoring-schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/health/providers/{provider_name}",
      "x-access": "any",
      tags: ["Monitoring"],
      description:
        "The canary record of one watched provider: label, rolling 7- and 30-day success rates, average latency, last check, whether its latest run passed, checks per UTC day, its 20 most recent failed checks, where its answers drifted from the expected format, and its open alerts. `days` (1 to 30, default 7; checks are kept 30 days) sets the window of the daily figures, latency, failures and drift, today included. A watched provider never checked yet answers with nulls and empty lists; a name the canary does not watch is a 404. Any key.",
      summary: "One provider's canary record: label, 7- and 30-day rates, latency, checks by day, recent failures",
      security: keyed,
      request: {
        params: z.object({ provider_name: textParam(100).openapi({ example: "delayed_provider" }) }),
        query: z.object({ days: DaysParam }),
      },
      responses: {
        200: {
          description: "The provider's health",
          content: { "application/json": { schema: ProviderHealthSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerGetProviderHealth(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const input = { provider: c.req.valid("param").provider_name, days: c.req.valid("query").days };
    return c.json(await getProviderHealth({ ctx: c.get("deps"), input }), 200);
  });
}
