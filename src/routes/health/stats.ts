import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../deps";
import { getValidationStats } from "../../services/monitoring/get-stats";
import { keyed, withErrors } from "../openapi";

const Reliability = z.object({
  provider: z.string(),
  success_rate: z
    .number()
    .nullable()
    .openapi({ description: "Valid values over values given (nulls are missing, not wrong)" }),
  values: z.number().int(),
});

export const ValidationStatsSchema = z
  .object({
    period: z.literal("last_7_days"),
    total_values_validated: z.number().int(),
    total_valid: z.number().int(),
    total_outliers: z.number().int(),
    total_out_of_range: z.number().int(),
    total_nulls: z.number().int(),
    total_schema_drift: z.number().int().openapi({
      description:
        "Places where a provider's answer departed from the format the service reads (a field gone, renamed or of another type); each cost that field only",
    }),
    overall_quality_score: z.number().nullable().openapi({ description: "Valid over values given; null without data" }),
    most_reliable_providers: z.array(Reliability),
    least_reliable_providers: z.array(Reliability),
    fields_most_often_invalid: z.array(
      z.object({ field: z.string(), invalid: z.number().int(), total: z.number().int() }),
    ),
    schema_drift: z
      .array(
        z.object({
          provider: z.string(),
          field: z.string().openapi({ example: "quoteSummary:earningsTrend.trend[].defaultMethodology" }),
          count: z.number().int().openapi({ description: "Instruments and days it was seen on" }),
        }),
      )
      .openapi({ description: "Where the drift was seen, most often first (ten at most)" }),
    price_adjustments: z
      .object({
        tolerance: z.number().openapi({ example: 0.0002, description: "Relative tolerance of each session's step" }),
        listings_checked: z.number().int(),
        listings_disagreeing: z.number().int(),
        last_checked_at: z.string().nullable(),
        disagreeing: z
          .array(
            z.object({
              ticker: z.string(),
              exchange: z.string().nullable(),
              isin: z.string(),
              mismatches: z.number().int(),
              checked_at: z.string(),
              first: z
                .object({
                  date: z.string(),
                  kind: z.enum(["dividend", "split"]),
                  expected: z.number(),
                  observed: z.number(),
                })
                .nullable(),
            }),
          )
          .openapi({
            description:
              "Listings whose adjusted closes disagree with their events, most mismatches first (ten at most)",
          }),
      })
      .openapi({
        description:
          "Whether each listing's stored adjusted closes agree with its stored dividends and splits (checked after each ingestion)",
      }),
  })
  .openapi("ValidationStatistics");
export type ValidationStatsBody = z.infer<typeof ValidationStatsSchema>;

const route = createRoute(
  withErrors({
    method: "get",
    path: "/health/stats",
    tags: ["Monitoring"],
    summary: "The validation layer's verdicts of the last 7 days: totals, quality score, providers, fields",
    security: keyed,
    responses: {
      200: { description: "Validation statistics", content: { "application/json": { schema: ValidationStatsSchema } } },
    },
  }),
);

export function registerGetStats(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => c.json(await getValidationStats({ ctx: c.get("deps") }), 200));
}
