import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { CANARY_INSTRUMENTS } from "../../domain/monitoring/canary-references";
import { FUNDAMENTAL_PROVIDERS } from "../../domain/provider-names";
import { describeRun, runCanary } from "../../services/monitoring/canary";
import { getCanaryHistory } from "../../services/monitoring/canary-history";
import { inBackground } from "../background";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";
import { CanaryHistorySchema, CanaryQueuedSchema, DaysParam, ProviderNameParam } from "./monitoring-schema";

const historyRoute = createRoute(
  withErrors({
    method: "get",
    path: "/health/canary/history",
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

const runRoute = createRoute(
  withErrors({
    method: "post",
    path: "/health/canary/run",
    tags: ["Monitoring"],
    description:
      'Launches a canary run that proceeds after the response, which comes back immediately (HTTP 200) with `{status: "queued", provider, message}`; every fundamentals provider is checked unless `provider_name` is given in the query string. The run asks each provider about the reference instruments, passes every value through the validation layer, stores one check per value, opens a `canary_failed` alert when a check fails, then runs the outlier-rate alert check and caches the provider summary for an hour. A run of the same scope already in progress is not started twice (the answer looks the same); results appear in GET /health/providers and /health/canary/history. Needs a full-access key; the same run also happens daily at 06:30 UTC.',
    summary: "Starts a canary run of every fundamentals provider, or one (full-access); answers at once",
    security: keyed,
    "x-background": true,
    // The run writes the validation verdicts of the reference instruments (the nets reset them).
    "x-touches": CANARY_INSTRUMENTS.map((i) => i.ticker),
    request: { query: z.object({ provider_name: ProviderNameParam.optional() }) },
    responses: {
      200: { description: "Queued", content: { "application/json": { schema: CanaryQueuedSchema } } },
    },
  }),
);

export function registerCanary(api: OpenAPIHono<AppEnv>) {
  api.openapi(historyRoute, async (c) => {
    const q = c.req.valid("query");
    const input = { provider: q.provider_name, ticker: q.ticker, days: q.days, limit: q.limit };
    return c.json(await getCanaryHistory({ ctx: c.get("deps"), input }), 200);
  });
  api.openapi(runRoute, async (c) => {
    const only = c.req.valid("query").provider_name;
    inBackground(c, async (deps) => {
      console.log("canary run:", describeRun(await runCanary(deps, only)));
    });
    return c.json(
      {
        status: "queued" as const,
        provider: only ?? "all",
        // The same words whether this request started the run or one in progress covers it.
        message: `canary run of ${only ?? FUNDAMENTAL_PROVIDERS.join(", ")} queued; its results appear in GET /health/providers and /health/canary/history`,
      },
      200,
    );
  });
  return api;
}
