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
