import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getStoredTicker, listStoredSeries } from "../../services/database/list-stored";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { TickerParam } from "../params";
import { StoredTickerSchema, StoredTickersSchema, toStoredSeries } from "./schema";

const list = createRoute(
  withErrors({
    method: "get",
    path: "/database/tickers",
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

const one = createRoute(
  withErrors(
    {
      method: "get",
      path: "/database/ticker/{ticker}",
      tags: ["Database administration"],
      description:
        "The stored daily series of every listing bearing the ticker (the fields of /database/tickers), with the number of API requests that named it over the usage-log retention and over the last 24 hours. A 404 when no prices are stored for it; any key.",
      summary: "The stored series of one ticker and its number of API requests",
      security: keyed,
      request: { params: z.object({ ticker: TickerParam }) },
      responses: {
        200: {
          description: "The ticker's stored series",
          content: { "application/json": { schema: StoredTickerSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerStoredTickers(api: OpenAPIHono<AppEnv>) {
  api.openapi(list, async (c) => {
    const series = await listStoredSeries({ ctx: c.get("deps") });
    return c.json({ count: series.length, tickers: series.map(toStoredSeries) }, 200);
  });
  return api.openapi(one, async (c) => {
    const { ticker } = c.req.valid("param");
    const { series, requests } = await getStoredTicker({ ctx: c.get("deps"), input: { ticker } });
    return c.json(
      {
        ticker,
        listings: series.map(toStoredSeries),
        api_requests: requests.total,
        api_requests_24h: requests.last24h,
      },
      200,
    );
  });
}
