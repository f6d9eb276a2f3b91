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
    tags: ["Technical indicators"],
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
