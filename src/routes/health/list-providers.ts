import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { getProvidersHealth } from "../../services/monitoring/provider-health";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { ProvidersHealthSchema } from "./monitoring-schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/health/providers",
    "x-access": "any",
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

export function registerListProviderHealth(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => c.json(await getProvidersHealth({ ctx: c.get("deps") }), 200));
}
