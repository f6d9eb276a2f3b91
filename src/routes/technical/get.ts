import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getIndicator } from "../../services/technical/get-indicator";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { TickerParam } from "../params";
import { IndicatorResultSchema, intParam, WindowQuery } from "./schema";

/** One indicator's parameters and window (the workspace's indicator widget takes the same). */
export const IndicatorQuery = {
  indicator: z.string().max(32).default("rsi").openapi({ description: "Indicator name (see /technical/list)" }),
  period: intParam(1, 1000).optional().openapi({ description: "Sets the length (not used by macd and stoch)" }),
  fast: intParam(2, 1000).optional(),
  slow: intParam(2, 1000).optional(),
  signal: intParam(1, 1000).optional(),
  std: z.coerce.number().min(0.1).max(10).optional().openapi({ description: "Bollinger standard deviations" }),
  ...WindowQuery,
  limit: intParam(1, 100_000).optional().openapi({
    description:
      "Bars answered (the newest of the window); default TECHNICAL_DEFAULT_LIMIT (500). Values are computed over the stored history, so a date's value is the same whatever the window",
  }),
};

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/technical/{ticker}",
      "x-mcp-tool": "get_indicator",
      "x-access": "any",
      tags: ["Technical indicators"],
      description:
        "One indicator (`indicator`, default rsi) over the stored prices of the ticker's listing, chosen as /eod chooses it: `period` sets the length (not for macd and stoch), `fast`/`slow`/`signal` the MACD parameters and `std` the Bollinger width. `resolution` is 1D (default), 1W or 1M from the daily bars, or 1min from the stored 1-minute candles; the window is `from_date`/`to_date` (not `from`/`to` as on /eod; the spec fixes both names) plus `limit` (default TECHNICAL_DEFAULT_LIMIT, 500, the newest bars), while values are always computed over the stored history, so a date's value does not depend on the window. Values are decimal strings, null during the warm-up, a shape the spec fixes although prices elsewhere are JSON numbers; answers are cached 1 hour on daily bars and 60 s on 1-minute bars. Errors: 400 for an unknown indicator or vwap on daily bars, 404 when no prices are stored (this route never ingests: call /eod or /historical/ingest first), 422 when the stored history is too short for the parameters; any key.",
      summary: "One indicator over the stored prices of a ticker",
      security: keyed,
      request: {
        params: z.object({ ticker: TickerParam }),
        query: z.object(IndicatorQuery),
      },
      responses: {
        200: { description: "Indicator result", content: { "application/json": { schema: IndicatorResultSchema } } },
      },
    },
    [404, 422],
  ),
);

export function registerGetIndicator(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const result = await getIndicator({
      ctx: c.get("deps"),
      input: { ...q, ticker: c.req.valid("param").ticker, fromDate: q.from_date, toDate: q.to_date },
    });
    return c.json(result, 200);
  });
}
