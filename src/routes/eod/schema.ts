import { z } from "@hono/zod-openapi";

export const EodBarSchema = z
  .object({
    Date: z.string().openapi({ example: "2026-11-24" }),
    Open: z.number(),
    High: z.number(),
    Low: z.number(),
    Close: z.number(),
    "Adj Close": z.number(),
    Volume: z.number().int(),
  })
  .openapi("EodBar");

export const EodAnswerSchema = z
  .object({
    ticker: z.string(),
    listing: z.object({ ticker: z.string(), isin: z.string(), currency: z.string(), exchange: z.string().nullable() }),
    period: z.string(),
    format: z.string(),
    count: z.number().int(),
    retrieved_at: z.string().openapi({ example: "2026-11-25T14:03:11.512+00:00" }),
    data_source: z.enum(["database", "delayed_provider", "stream_provider"]),
    data: z.array(EodBarSchema),
  })
  .openapi("EodAnswer");
