import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { runBatch } from "../../services/technical/batch";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { TechnicalBatchAnswerSchema, TechnicalBatchRequestSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "post",
    path: "/technical/batch",
    "x-access": "any",
    tags: ["Technical indicators"],
    description:
      "The /technical/{ticker}/multi computation for several tickers: body `tickers` (at most TECHNICAL_MAX_BATCH_TICKERS, 20) and `indicators` (at most TECHNICAL_MAX_BATCH_INDICATORS, 10; names such as `rsi_14` or `macd`, a numeric suffix setting the parameters), with `resolution` (default 1D), `from_date`/`to_date`, `limit` (default 500) and `include_ohlcv`. The answer is an object keyed by ticker, each entry holding that ticker's multi result; a ticker without stored prices or an unknown indicator is reported in that ticker's `errors`, not as a failure, and more tickers or indicators than allowed is a 400. It only computes on stored prices (nothing is ingested), so a read-only key may call it.",
    summary: "Several indicators for several tickers (read-only keys allowed)",
    security: keyed,
    request: { body: { required: true, content: { "application/json": { schema: TechnicalBatchRequestSchema } } } },
    responses: {
      200: {
        description: "Each ticker's multi-indicator result",
        content: {
          "application/json": { schema: TechnicalBatchAnswerSchema },
        },
      },
    },
  }),
);

export function registerBatch(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const b = c.req.valid("json");
    const result = await runBatch({
      ctx: c.get("deps"),
      input: {
        tickers: b.tickers,
        indicators: b.indicators,
        resolution: b.resolution,
        fromDate: b.from_date ?? undefined,
        toDate: b.to_date ?? undefined,
        limit: b.limit,
        includeOhlcv: b.include_ohlcv,
      },
    });
    return c.json(result, 200);
  });
}
