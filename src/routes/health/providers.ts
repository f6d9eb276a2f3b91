import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getProviderHealth, getProvidersHealth } from "../../services/monitoring/provider-health";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { DaysParam, ProviderHealthSchema, ProvidersHealthSchema } from "./monitoring-schema";

const listRoute = createRoute(
  withErrors({
    method: "get",
    path: "/health/providers",
    tags: ["Monitoring"],
    description:
      "Health of each fundamentals provider the canary watches (delayed_provider, scraped_businessinsider, scraped_onvista): its 7-day success rate over canary checks, a label (`OK` from 85 %, `DEGRADED` from 70 %, `DOWN` below) and counts per label. Within an hour of the latest canary run the summary comes from the cache (`source: cache`) and, as the spec fixes it, `avg_latency_ms`, `last_check` and `canary_passed` are then null and `active_alerts` is 0; otherwise it is computed from the stored checks (`source: database`). A new instance answers an empty list until its first canary run. Any key.",
    summary: "Health of each fundamentals provider from its canary checks (the cached summary within the hour)",
    security: keyed,
    responses: {
      200: { description: "Provider health", content: { "application/json": { schema: ProvidersHealthSchema } } },
    },
  }),
);

const detailRoute = createRoute(
  withErrors(
    {
      method: "get",
      path: "/health/providers/{provider_name}",
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

export function registerProviderHealth(api: OpenAPIHono<AppEnv>) {
  api.openapi(listRoute, async (c) => c.json(await getProvidersHealth({ ctx: c.get("deps") }), 200));
  api.openapi(detailRoute, async (c) => {
    const input = { provider: c.req.valid("param").provider_name, days: c.req.valid("query").days };
    return c.json(await getProviderHealth({ ctx: c.get("deps"), input }), 200);
  });
  return api;
}
