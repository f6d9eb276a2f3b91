import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { getDatabaseStats } from "../../services/database/get-stats";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { DatabaseStatsSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/database/stats",
    "x-access": "any",
    tags: ["Database administration"],
    description:
      "Totals of the database: stored daily bars, listings and tickers that have prices, the first and last stored date, stored 1-minute candles, catalogue instruments and listings, and how many API requests the usage log recorded over the past 24 hours. Any key.",
    summary: "Stored prices and tickers, API requests of the last 24 hours",
    security: keyed,
    responses: {
      200: { description: "Database statistics", content: { "application/json": { schema: DatabaseStatsSchema } } },
    },
  }),
);

export function registerGetDatabaseStats(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const t = await getDatabaseStats({ ctx: c.get("deps") });
    return c.json(
      {
        prices: {
          daily_bars: t.dailyBars,
          listings: t.listingsWithPrices,
          tickers: t.tickersWithPrices,
          first_date: t.firstDate,
          last_date: t.lastDate,
          intraday_candles: t.intradayCandles,
        },
        catalogue: { assets: t.assets, listings: t.listings },
        api_requests_24h: t.requests24h,
      },
      200,
    );
  });
}
