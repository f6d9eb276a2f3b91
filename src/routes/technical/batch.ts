import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { runBatch } from "../../services/technical/batch";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { TechnicalBatchAnswerSchema, TechnicalBatchRequestSchema } from "./schema";

const route = createRoute(
  withErrors({
    method: "post",
    path: "/technical/batch",
    tags: ["Technical indicators"],
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
