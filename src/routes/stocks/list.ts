import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { DELAYED } from "../../domain/provider-names";
import { getStocksOverview } from "../../services/stocks/get-overview";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { StocksOverviewSchema } from "./schema";

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
        content: { "application/json": { schema: StocksOverviewSchema } },
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
