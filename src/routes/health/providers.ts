import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../deps";
import { CANARY_INSTRUMENTS } from "../../domain/monitoring/canary-references";
import { FUNDAMENTAL_PROVIDERS } from "../../providers/names";
import { describeRun, runCanary } from "../../services/monitoring/canary";
import { getCanaryHistory, getProviderHealth, getProvidersHealth } from "../../services/monitoring/provider-health";
import { inBackground } from "../background";
import { keyed, textParam, withErrors } from "../openapi";

const Label = z.enum(["OK", "DEGRADED", "DOWN"]);
/** Checks are kept 30 days (the daily retention job), so no window reaches further. */
const Days = z.coerce
  .number()
  .int()
  .min(1)
  .max(30)
  .default(7)
  .openapi({ description: "Days back (1 to 30: checks are kept 30 days)" });

const EntrySchema = z
  .object({
    name: z.string(),
    is_healthy: z.boolean(),
    success_rate_7d: z.number().openapi({ description: "Canary checks passed over checks made, last 7 days (0 to 1)" }),
    avg_latency_ms: z.number().nullable(),
    last_check: z.string().nullable(),
    canary_passed: z
      .boolean()
      .nullable()
      .openapi({ description: "Every check of the provider's latest canary run passed" }),
    active_alerts: z.number().int(),
    status_label: Label,
  })
  .openapi("ProviderHealthEntry");

export const ProvidersHealthSchema = z
  .object({
    checked_at: z.string(),
    total_providers: z.number().int(),
    healthy: z.number().int(),
    degraded: z.number().int(),
    down: z.number().int(),
    providers: z.array(EntrySchema),
    source: z.enum(["cache", "database"]).openapi({
      description:
        "cache: the summary of the latest canary run (within the hour; latency, last check, canary outcome null, active alerts 0); database: computed now",
    }),
  })
  .openapi("ProvidersHealth");
export type ProvidersHealthBody = z.infer<typeof ProvidersHealthSchema>;

const CheckSchema = z
  .object({
    provider_name: z.string(),
    ticker: z.string().nullable(),
    field: z.string().nullable().openapi({ description: "null: the provider could not be asked (the error says why)" }),
    value: z.number().nullable(),
    expected_min: z.number().nullable(),
    expected_max: z.number().nullable(),
    passed: z.boolean(),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    checked_at: z.string(),
  })
  .openapi("CanaryCheck");

export const ProviderHealthSchema = z
  .object({
    name: z.string(),
    status: Label.nullable().openapi({ description: "null before the provider's first canary check" }),
    is_healthy: z.boolean().nullable(),
    success_rate_7d: z.number().nullable(),
    success_rate_30d: z.number().nullable(),
    days: z.number().int(),
    avg_latency_ms: z.number().nullable(),
    last_check: z.string().nullable(),
    canary_passed: z.boolean().nullable(),
    daily_stats: z.array(
      z.object({
        date: z.string(),
        checks: z.number().int(),
        passed: z.number().int(),
        success_rate: z.number(),
        avg_latency_ms: z.number().nullable(),
      }),
    ),
    recent_failures: z.array(CheckSchema),
    active_alerts: z.number().int(),
  })
  .openapi("ProviderHealth");
export type ProviderHealthBody = z.infer<typeof ProviderHealthSchema>;

export const CanaryHistorySchema = z
  .object({ count: z.number().int(), days: z.number().int(), checks: z.array(CheckSchema) })
  .openapi("CanaryHistory");
export type CanaryHistoryBody = z.infer<typeof CanaryHistorySchema>;

export const CanaryQueuedSchema = z
  .object({ status: z.literal("queued"), provider: z.string(), message: z.string() })
  .openapi("CanaryRunQueued");
export type CanaryQueuedBody = z.infer<typeof CanaryQueuedSchema>;

const ProviderName = z.enum(FUNDAMENTAL_PROVIDERS);

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
        query: z.object({ days: Days }),
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

const historyRoute = createRoute(
  withErrors({
    method: "get",
    path: "/health/canary/history",
    tags: ["Monitoring"],
    summary: "Stored canary checks, newest first",
    security: keyed,
    request: {
      query: z.object({
        provider_name: ProviderName.optional(),
        ticker: textParam(32).optional(),
        days: Days,
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
    summary: "Starts a canary run of every fundamentals provider, or one (full-access); answers at once",
    security: keyed,
    "x-background": true,
    // The run writes the validation verdicts of the reference instruments (the nets reset them).
    "x-touches": CANARY_INSTRUMENTS.map((i) => i.ticker),
    request: { query: z.object({ provider_name: ProviderName.optional() }) },
    responses: {
      200: { description: "Queued", content: { "application/json": { schema: CanaryQueuedSchema } } },
    },
  }),
);

export function registerProviderHealth(api: OpenAPIHono<AppEnv>) {
  api.openapi(listRoute, async (c) => c.json(await getProvidersHealth({ ctx: c.get("deps") }), 200));
  api.openapi(detailRoute, async (c) => {
    const input = { provider: c.req.valid("param").provider_name, days: c.req.valid("query").days };
    return c.json(await getProviderHealth({ ctx: c.get("deps"), input }), 200);
  });
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
