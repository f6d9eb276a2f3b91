import { z } from "@hono/zod-openapi";
import { DELAYED } from "../../domain/provider-names";

const StockSchema = z.object({
  symbol: z.string(),
  name: z.string().nullable(),
  currency: z.string().nullable(),
  exchange: z.string().nullable(),
  price: z.number(),
  previous_close: z.number().nullable(),
  change: z.number().nullable(),
  change_percent: z.number().nullable().openapi({ description: "Percent: 1.25 means +1.25 %" }),
  volume: z.number().int().nullable(),
  market_time: z.string().nullable().openapi({ description: "Time of the last trade, ISO 8601 UTC" }),
});

export const StocksOverviewSchema = z
  .object({
    count: z.number().int(),
    source: z.literal(DELAYED),
    stocks: z.array(StockSchema),
    errors: z.array(z.object({ symbol: z.string(), message: z.string() })),
  })
  .openapi("StocksOverview");
export type StocksOverview = z.infer<typeof StocksOverviewSchema>;
