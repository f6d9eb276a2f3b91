import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../deps";
import { DELAYED } from "../../providers/names";
import { getStocksOverview } from "../../services/stocks/get-overview";
import { keyed, withErrors } from "../openapi";

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

const OverviewSchema = z
  .object({
    count: z.number().int(),
    source: z.literal(DELAYED),
    stocks: z.array(StockSchema),
    errors: z.array(z.object({ symbol: z.string(), message: z.string() })),
  })
  .openapi("StocksOverview");

const route = createRoute(
  withErrors({
    method: "get",
    path: "/stocks",
    tags: ["Legacy"],
    summary: "Market overview from delayed-provider quotes of a configured list (legacy; STOCKS_OVERVIEW_TICKERS)",
    security: keyed,
    responses: {
      200: {
        description: "Quotes; symbols that failed are listed in errors",
        content: { "application/json": { schema: OverviewSchema } },
      },
    },
  }),
);

export function registerListStocks(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const o = await getStocksOverview({ ctx: c.get("deps") });
    const stocks = o.entries.map(({ quote: q, change, changePercent }) => ({
      symbol: q.symbol,
      name: q.name,
      currency: q.currency,
      exchange: q.exchange,
      price: q.price,
      previous_close: q.previousClose,
      change,
      change_percent: changePercent,
      volume: q.volume,
      market_time: q.marketTime === null ? null : new Date(q.marketTime * 1000).toISOString(),
    }));
    return c.json({ count: stocks.length, source: DELAYED, stocks, errors: o.errors }, 200);
  });
}
