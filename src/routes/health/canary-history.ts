import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getCanaryHistory } from "../../services/monitoring/canary-history";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { CanaryHistorySchema, DaysParam, ProviderNameParam } from "./monitoring-schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/health/canary/history",
    "x-access": "any",
    tags: ["Monitoring"],
    description:
      "The stored canary checks, newest first: provider, reference ticker, field, the value read, its expected range, passed or not, latency and the problem found. `provider_name` (one of the three watched providers; any other name is a 400) and `ticker` filter; `days` (1 to 30, default 7) and `limit` (1 to 1000, default 100) bound the list. Any key.",
    summary: "Stored canary checks, newest first",
    security: keyed,
    request: {
      query: z.object({
        provider_name: ProviderNameParam.optional(),
        ticker: textParam(32).optional(),
        days: DaysParam,
        limit: z.coerce.number().int().min(1).max(1000).default(100),
      }),
    },
    responses: {
      200: { description: "Canary checks", content: { "application/json": { schema: CanaryHistorySchema } } },
    },
  }),
);

export function registerGetCanaryHistory(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const input = { provider: q.provider_name, ticker: q.ticker, days: q.days, limit: q.limit };
    return c.json(await getCanaryHistory({ ctx: c.get("deps"), input }), 200);
  });
}
