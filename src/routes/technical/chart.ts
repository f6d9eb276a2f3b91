import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../deps";
import { CHART_DEFAULT_LIMIT, getChart } from "../../services/technical/get-chart";
import { keyed, withErrors } from "../openapi";
import { TickerParam } from "../params";
import { IndicatorErrorSchema, IndicatorListParam, intParam, seriesWindow, WindowQuery } from "./schema";

const column = z.array(z.number());
const ChartSchema = z
  .object({
    ticker: z.string(),
    resolution: z.string(),
    timestamps: z.array(z.string()),
    ohlcv: z.object({ open: column, high: column, low: column, close: column, volume: column }),
    indicators: z
      .record(z.string(), z.array(z.number().nullable()))
      .openapi({ description: "Column name -> values aligned on timestamps (null during the warm-up)" }),
    errors: z.array(IndicatorErrorSchema),
  })
  .openapi("IndicatorChart");

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
        content: { "application/json": { schema: ChartSchema } },
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
