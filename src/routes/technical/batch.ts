import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../deps";
import { RESOLUTIONS } from "../../domain/indicators/request";
import { runBatch } from "../../services/technical/batch";
import { keyed, withErrors } from "../openapi";
import { DateParam, TickerParam } from "../params";
import { MultiResultSchema } from "./schema";

const BodySchema = z
  .object({
    tickers: z.array(TickerParam).min(1).max(1000).openapi({ description: "At most TECHNICAL_MAX_BATCH_TICKERS (20)" }),
    indicators: z
      .array(z.string().max(50))
      .min(1)
      .max(1000)
      .openapi({ description: "At most TECHNICAL_MAX_BATCH_INDICATORS (10)", example: ["rsi_14", "macd"] }),
    resolution: z.enum(RESOLUTIONS).default("1D"),
    from_date: DateParam.nullable().default(null),
    to_date: DateParam.nullable().default(null),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .openapi({ description: "Bars loaded per ticker; default TECHNICAL_DEFAULT_LIMIT (500)" }),
    include_ohlcv: z.boolean().default(false),
  })
  .openapi("TechnicalBatchRequest", { example: { tickers: ["MC.PA", "AAPL"], indicators: ["rsi_14", "macd"] } });

const route = createRoute(
  withErrors({
    method: "post",
    path: "/technical/batch",
    tags: ["Technical indicators"],
    summary: "Several indicators for several tickers (read-only keys allowed)",
    security: keyed,
    request: { body: { required: true, content: { "application/json": { schema: BodySchema } } } },
    responses: {
      200: {
        description: "Each ticker's multi-indicator result",
        content: {
          "application/json": { schema: z.record(z.string(), MultiResultSchema).openapi("TechnicalBatchAnswer") },
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
