import { z } from "@hono/zod-openapi";
import { DELAYED } from "../../domain/provider-names";

const HistoryBarSchema = z.object({
  date: z.string(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  adj_close: z.number(),
  volume: z.number().int(),
});

export const TickerHistorySchema = z
  .object({
    symbol: z.string(),
    currency: z.string().nullable().openapi({ description: "As the provider quotes it (GBp is pence)" }),
    exchange: z.string().nullable(),
    interval: z.enum(["1d", "1wk", "1mo"]),
    from: z.string(),
    to: z.string(),
    source: z.literal(DELAYED),
    count: z.number().int(),
    data: z.array(HistoryBarSchema),
  })
  .openapi("TickerHistory");
export type TickerHistory = z.infer<typeof TickerHistorySchema>;
