import { z } from "@hono/zod-openapi";

export const HealthSchema = z
  .object({
    status: z.enum(["ok", "degraded"]),
    service: z.string(),
    timestamp: z.string().openapi({ description: "ISO 8601 UTC without zone", example: "2026-11-25T21:30:53.123" }),
    delayed_provider_available: z.boolean(),
    providers: z.object({
      loaded: z.number().int(),
      unavailable: z.array(z.string()),
      calls: z
        .record(
          z.string(),
          z.object({
            failing: z.boolean(),
            calls: z.number().int(),
            failures: z.number().int(),
            last_success_at: z.string().nullable(),
            last_failure_at: z.string().nullable(),
            last_failure: z.string().nullable(),
            last_failure_reason: z.string().nullable().openapi({
              description:
                "What failed, in the service's words: the host that could not be reached and why, a timeout, an HTTP status",
              example: "could not reach query2.finance.yahoo.com (the host name could not be resolved)",
            }),
            resting_until: z.string().nullable().openapi({
              description:
                "Set while the provider rests after failing PROVIDER_REST_AFTER_FAILURES times in a row: it is not asked until then",
            }),
          }),
        )
        .openapi({
          description:
            "How the calls to each provider have gone on the instance that answers (in memory, since it started); failing: the last call failed",
        }),
    }),
    cache: z.object({
      enabled: z.boolean(),
      status: z.string(),
      ttl_seconds: z.record(z.string(), z.number().int()),
    }),
  })
  .openapi("Health");
export type Health = z.infer<typeof HealthSchema>;
