import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { listStoredSeries } from "../../services/database/list-stored";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { StoredTickersSchema, toStoredSeries } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/database/tickers",
    "x-access": "any",
    tags: ["Database administration"],
    description:
      "One row per listing that has stored daily prices: ticker, listing id, ISIN, exchange, currency, first and last date, number of bars and the provider of the newest bar. Read from the database; any key.",
    summary: "Every ticker with prices: first date, last date, number of bars",
    security: keyed,
    responses: {
      200: {
        description: "Stored series, one per listing",
        content: { "application/json": { schema: StoredTickersSchema } },
      },
    },
  }),
);

export function registerListStoredTickers(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const series = await listStoredSeries({ ctx: c.get("deps") });
    return c.json({ count: series.length, tickers: series.map(toStoredSeries) }, 200);
  });
}
