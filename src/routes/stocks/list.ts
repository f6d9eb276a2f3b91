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
    "x-access": "any",
    tags: ["Legacy"],
    description:
      "Legacy market overview: the delayed provider's quotes of the symbols configured in STOCKS_OVERVIEW_TICKERS (AAPL, MSFT, GOOGL, AMZN, NVDA, META, TSLA, MC.PA, SAP.DE, ASML.AS by default), asked as typed, with price, previous close, change, percent change, volume and time of the last trade. Prices here are JSON numbers, unlike the decimal strings of /quote. A symbol that fails is listed in `errors` while the others still answer; complete answers are cached 60 seconds, partial ones not. Any key; /quotes is the current route.",
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
