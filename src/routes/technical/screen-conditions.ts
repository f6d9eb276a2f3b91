import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../deps";
import { MAX_WHERE_LENGTH } from "../../domain/screen-conditions";
import { screenByConditions } from "../../services/technical/screen-conditions";
import { keyed, withErrors } from "../openapi";
import { intParam, screenedInstrument } from "./schema";

const ConditionsAnswerSchema = z
  .object({
    where: z.string(),
    matches: z.array(
      z.object({
        ...screenedInstrument,
        values: z.record(z.string(), z.string()).openapi({
          description:
            "Each indicator the conditions read (named in full: rsi_14, sma_200) and the close, decimal strings",
          example: { rsi_14: "27.4118", sma_200: "181.2207", close: "190.11" },
        }),
      }),
    ),
    total: z.number().int().openapi({ description: "Matches before the limit" }),
    screened: z
      .number()
      .int()
      .openapi({ description: "Instruments with every indicator the conditions read computable" }),
    calculated_at: z.string(),
  })
  .openapi("ConditionsScreenResult");

const route = createRoute(
  withErrors({
    method: "get",
    path: "/technical/screen/conditions",
    tags: ["Technical indicators"],
    summary: "Catalogue instruments meeting several conditions at once (cached 15 minutes)",
    description:
      "Conditions joined by `,` or ` and `, each `term op term-or-number` with op <, <=, > or >=: terms are `close` and the snapshotted indicators (every indicator's defaults, length 14, sma_50, sma_200, ema_50, ema_200); `sector`, `exchange`, `currency` and `quote_type` compare with `=`. Matches are ordered by the first condition's left term, most extreme first.",
    security: keyed,
    request: {
      query: z
        .object({
          where: z
            .string()
            .min(1)
            .max(MAX_WHERE_LENGTH)
            .openapi({ example: "rsi_14 < 30, close > sma_200, exchange = NASDAQ" }),
          limit: intParam(1, 1000).default(50),
        })
        .strict(),
    },
    responses: {
      200: {
        description: "The matches, with the values they were tested on",
        content: { "application/json": { schema: ConditionsAnswerSchema } },
      },
    },
  }),
);

export function registerScreenConditions(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) =>
    c.json(await screenByConditions({ ctx: c.get("deps"), input: c.req.valid("query") }), 200),
  );
}
