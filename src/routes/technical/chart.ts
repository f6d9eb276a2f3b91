import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { CHART_DEFAULT_LIMIT, getChart } from "../../services/technical/get-chart";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { TickerParam } from "../params";
import { IndicatorChartSchema, IndicatorListParam, intParam, seriesWindow, WindowQuery } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/technical/{ticker}/chart",
    "x-access": "any",
    tags: ["Technical indicators"],
    description:
      "Price bars with indicator columns lined up on identical timestamps, ready to plot: `indicators` defaults to sma_20,ema_50,volume (`volume` is the volume column itself, and an indicator with several outputs gives one column each, e.g. `macd_signal`) and `limit` to the newest 200 bars, with `resolution` and `from_date`/`to_date` as on the other technical routes. Unlike /technical/{ticker} and /multi, whose values are decimal strings, these columns are JSON numbers (rounded to 10 decimals, null during the warm-up); the spec fixes both shapes. Failures, and a ticker without stored prices, are reported in `errors` rather than as an error status; answers are cached like the other indicator routes. Any key.",
    summary: "Bars and indicator columns aligned on the same timestamps",
    security: keyed,
    request: {
      params: z.object({ ticker: TickerParam }),
      query: z.object({
        indicators: IndicatorListParam("sma_20,ema_50,volume"),
        ...WindowQuery,
        limit: intParam(1, 100_000).default(CHART_DEFAULT_LIMIT),
      }),
    },
    responses: {
      200: {
        description: "Aligned columns; failures in errors",
        content: { "application/json": { schema: IndicatorChartSchema } },
      },
    },
  }),
);

export function registerGetChart(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const result = await getChart({
      ctx: c.get("deps"),
      input: { ticker: c.req.valid("param").ticker, indicators: q.indicators, ...seriesWindow(q) },
    });
    return c.json(result, 200);
  });
}
