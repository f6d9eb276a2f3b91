import { z } from "@hono/zod-openapi";

export const MacroRatesSchema = z
  .object({
    risk_free_rate: z
      .object({
        series_id: z.string().openapi({ example: "DGS10" }),
        label: z.string(),
        value: z
          .string()
          .openapi({ example: "0.0412", description: "A ratio (0.0412 = 4.12 %), although unit says percent" }),
        unit: z.string().openapi({ example: "percent" }),
        observation_date: z.string().openapi({ example: "2026-11-24" }),
        currency: z.string().openapi({ example: "USD", description: "The currency whose risk-free rate it is" }),
        frequency: z.enum(["daily", "monthly"]).openapi({
          description:
            "How often the series is observed: DGS10 daily (business days); the others monthly, dated the first of their month",
        }),
      })
      .nullable()
      .openapi({ description: "Null when no value was ever read; the valuation then uses DCF_RISK_FREE_RATE" }),
    meta: z.object({
      fetched_at: z.string().nullable().openapi({ description: "When the value was read from the macro provider" }),
      cache_hit: z.boolean(),
      stale: z.boolean().openapi({
        description: "Read more than 6 hours ago: the macro provider could not be asked or failed (see note)",
      }),
      note: z.string().optional(),
    }),
  })
  .openapi("MacroRates");
export type MacroRatesBody = z.infer<typeof MacroRatesSchema>;
