import { z } from "@hono/zod-openapi";

export const IndexConstituentsSchema = z
  .object({
    index: z.object({
      code: z.string().openapi({ example: "cac40" }),
      name: z.string().openapi({ example: "CAC 40" }),
      symbol: z.string().openapi({ description: "The index level's delayed-provider symbol", example: "^FCHI" }),
      as_of: z.string().openapi({ description: "The date the stored composition held" }),
      source: z.string().openapi({ description: "Where the composition was taken from" }),
      member_count: z.number().int(),
    }),
    members: z.array(
      z.object({
        isin: z.string(),
        name: z.string(),
        ticker: z.string().nullable().openapi({ description: "The listing on the index's exchange" }),
        exchange: z.string().nullable(),
        currency: z.string().nullable(),
        sector: z.string().nullable(),
        industry: z.string().nullable(),
        country: z.string().nullable(),
        weight: z.number().nullable().openapi({ description: "Ratio; null when the source gives none" }),
      }),
    ),
  })
  .openapi("IndexConstituents");
export type IndexConstituentsAnswer = z.infer<typeof IndexConstituentsSchema>;
