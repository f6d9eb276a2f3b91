import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getValidationStats } from "../../services/monitoring/get-stats";
import { AdjustmentMismatchSchema } from "../corporate-actions/schema";
import type { AppEnv } from "../env";
import { PriceWarningSchema } from "../eod/schema";
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
        tolerance: z.number().openapi({
          example: 9.5e-7,
          description:
            "Relative tolerance of a session's step at full precision (prices near 100); each step is held to the tolerance its own prices' precision gives",
        }),
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
              first: AdjustmentMismatchSchema.nullable(),
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
    price_sanity: z
      .object({
        findings: z.number().int(),
        listings_with_findings: z.number().int(),
        by_kind: z.array(
          z.object({
            kind: PriceWarningSchema.shape.kind,
            findings: z.number().int(),
            listings: z.number().int(),
            repairable: z.boolean(),
            last_found_at: z.string().nullable(),
          }),
        ),
        listings: z
          .array(
            z.object({
              ticker: z.string(),
              exchange: z.string().nullable(),
              isin: z.string(),
              findings: z.number().int(),
              kinds: z.array(PriceWarningSchema.shape.kind),
              first: z.string(),
            }),
          )
          .openapi({ description: "The listings with most findings (ten at most)" }),
      })
      .openapi({
        description:
          "What the price sanity net found in the stored daily bars (run on every ingestion and refresh; the canary adds the weekly bars' check): the provider's known glitches, each listed on GET /eod's warnings",
      }),
  })
  .openapi("ValidationStatistics");
export type ValidationStatsBody = z.infer<typeof ValidationStatsSchema>;

const route = createRoute(
  withErrors({
    method: "get",
    path: "/health/stats",
    "x-access": "any",
    tags: ["Monitoring"],
    description:
      "Summary of the validation layer's verdicts on fundamentals values over the last 7 days: totals of valid values, outliers, out-of-range values and nulls, an overall quality score (valid values over values given, null without data), the most and least reliable providers, the fields most often refused, and the places where a provider's answer format drifted. It also reports `price_adjustments` (listings whose stored adjusted closes disagree with their stored dividends and splits) and `price_sanity` (what the price sanity net found in the stored daily bars), ten listings at most each. Read from the database; any key.",
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
