import { z } from "@hono/zod-openapi";

export const EtfDetailsSchema = z
  .object({
    isin: z.string(),
    ticker: z.string().openapi({ description: "The listing read (chosen as /eod chooses it)" }),
    name: z.string(),
    issuer: z.string().nullable(),
    category: z.string().nullable(),
    legal_type: z.string().nullable(),
    currency: z.string(),
    expense_ratio: z.number().nullable().openapi({ description: "Ratio: 0.0007 is 0.07 % a year" }),
    yield: z.number().nullable().openapi({ description: "Ratio" }),
    total_assets: z.number().nullable(),
    inception_date: z.string().nullable(),
    top_holdings: z.array(
      z.object({
        symbol: z.string(),
        name: z.string(),
        weight: z.number().nullable().openapi({ description: "Ratio" }),
      }),
    ),
    sector_weights: z
      .array(z.object({ sector: z.string(), weight: z.number() }))
      .openapi({ description: "Ratios summing to about 1" }),
    asset_classes: z
      .record(z.string(), z.number().nullable())
      .openapi({ description: "stock, bond, cash, preferred, convertible, other: ratios of the fund's assets" }),
    meta: z.object({
      source: z.enum(["delayed_provider", "database"]),
      symbol: z.string().nullable(),
      fetch_date: z.string().nullable(),
      fetched_at: z.string().nullable(),
      cache_hit: z.boolean(),
      note: z.string().optional(),
    }),
  })
  .openapi("EtfDetails");
export type EtfDetailsAnswer = z.infer<typeof EtfDetailsSchema>;
