import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getMulti } from "../../services/technical/get-multi";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { BoolParam, TickerParam } from "../params";
import { IndicatorListParam, intParam, MultiResultSchema, seriesWindow, WindowQuery } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/technical/{ticker}/multi",
    "x-mcp-tool": "get_indicators",
    "x-access": "any",
    tags: ["Technical indicators"],
    description:
      "Several indicators computed on one read of the ticker's stored prices: `indicators` is a comma-separated list (default sma_20,ema_50,rsi_14,macd) where numeric suffixes set the parameters in order (`sma_50`, `bbands_20_2`, `macd_12_26_9`). Window parameters are those of /technical/{ticker} (`resolution`, `from_date`/`to_date`, `limit`, default 500), and `include_ohlcv=true` adds the bars. Unknown names, bad parameters and too short a history go to `errors` instead of failing the request; without stored prices the answer is empty with the reason under indicator `*` (no 404). There is no cap on the number of indicators, but an answer of more than 1,000,000 values is a 400; values are decimal strings and answers are cached as on the single route. Any key.",
    summary: "Several indicators on one price read (a numeric suffix sets the first parameter: sma_50)",
    security: keyed,
    request: {
      params: z.object({ ticker: TickerParam }),
      query: z.object({
        indicators: IndicatorListParam("sma_20,ema_50,rsi_14,macd"),
        ...WindowQuery,
        limit: intParam(1, 100_000).optional(),
        include_ohlcv: BoolParam,
      }),
    },
    responses: {
      200: {
        description: "One indicator result per indicator; failures in errors",
        content: { "application/json": { schema: MultiResultSchema } },
      },
    },
  }),
);

export function registerGetMulti(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const result = await getMulti({
      ctx: c.get("deps"),
      input: {
        ticker: c.req.valid("param").ticker,
        indicators: q.indicators,
        includeOhlcv: q.include_ohlcv,
        ...seriesWindow(q),
      },
    });
    return c.json(result, 200);
  });
}
