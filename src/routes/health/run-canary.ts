import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { CANARY_INSTRUMENTS } from "../../domain/monitoring/canary-references";
import { FUNDAMENTAL_PROVIDERS } from "../../domain/provider-names";
import { describeRun, runCanary } from "../../services/monitoring/canary";
import { inBackground } from "../background";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { CanaryQueuedSchema, ProviderNameParam } from "./monitoring-schema";

const route = createRoute(
  withErrors({
    method: "post",
    path: "/health/canary/run",
    "x-access": "full",
    tags: ["Monitoring"],
    description:
      'Launches a canary run that proceeds after the response, which comes back immediately (HTTP 200) with `{status: "queued", provider, message}`; every fundamentals provider is checked unless `provider_name` is given in the query string (a run of all also reads the ECB daily file: its day, its 30 currencies and four reference rates within their historical ranges). The run asks each provider about the reference instruments, passes every value through the validation layer, stores one check per value, opens a `canary_failed` alert when a check fails, then runs the outlier-rate alert check and caches the provider summary for an hour. A run of the same scope already in progress is not started twice (the answer looks the same); results appear in GET /health/providers and /health/canary/history. Needs a full-access key; the same run also happens daily at 06:30 UTC.',
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

export function registerRunCanary(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
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
}
