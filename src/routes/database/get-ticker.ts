import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getStoredTicker } from "../../services/database/list-stored";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { TickerParam } from "../params";
import { StoredTickerSchema, toStoredSeries } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/database/ticker/{ticker}",
      "x-access": "any",
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

export function registerGetStoredTicker(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
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
