import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { MAX_WHERE_LENGTH } from "../../domain/screen-conditions";
import { screenByConditions } from "../../services/technical/screen-conditions";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { intParam, QueuedScreenSchema, screenedInstrument } from "./schema";
import { RETRY_AFTER_SECONDS } from "./screen";

const ConditionsAnswerSchema = z
  .object({
    where: z.string(),
    matches: z.array(
      z.object({
        ...screenedInstrument,
        currency: z
          .string()
          .nullable()
          .openapi({ description: "The listing's currency: the close's and the figures'" }),
        values: z.record(z.string(), z.string().nullable()).openapi({
          description:
            "Each indicator the conditions read (named in full: rsi_14, sma_200), the stored figures when a condition reads one (market_cap, pe_ratio, dividend_yield as a ratio; null when not known), and the close: decimal strings",
          example: {
            rsi_14: "27.4118",
            sma_200: "181.2207",
            market_cap: "2915330000000",
            pe_ratio: "29.41",
            dividend_yield: "0.0051",
            close: "190.11",
          },
        }),
        figures_as_of: z.string().nullable().openapi({
          description:
            "The day the stored figures were fetched (the weekly ask of the daily refresh, or a fundamentals request), when a condition reads them",
        }),
      }),
    ),
    total: z.number().int().openapi({ description: "Matches before the limit" }),
    screened: z.number().int().openapi({
      description: "Catalogue instruments read: each once, its preferred listing, with a current screen row",
    }),
    calculated_at: z.string(),
  })
  .openapi("ConditionsScreenResult");

/** The query of a screen of several conditions (this route's and the workspace widget's). */
export const ConditionsQuery = {
  where: z
    .string()
    .min(1)
    .max(MAX_WHERE_LENGTH)
    .openapi({
      example: "rsi_14 < 30 and close > sma_200 and market_cap > 10bn",
      examples: [
        "rsi_14 < 30 and close > sma_200 and market_cap > 10bn",
        "ema_50 > ema_200, exchange = NASDAQ",
        "dividend_yield >= 3%, pe_ratio < 15, currency = EUR",
      ],
    }),
  limit: intParam(1, 1000).default(50),
};

const route = createRoute(
  withErrors({
    method: "get",
    path: "/technical/screen/conditions",
    "x-mcp-tool": "screen_instruments_conditions",
    "x-access": "any",
    tags: ["Technical indicators"],
    summary: "Catalogue instruments meeting several conditions at once (cached 15 minutes)",
    description:
      "Conditions joined by `,` or ` and ` (at most 8), each `term op term-or-number` with op <, <=, > or >=: terms are `close`, the snapshotted indicators (every indicator's defaults, length 14, sma_50, sma_200, ema_50, ema_200) and the stored figures `market_cap` (in the listing's currency), `pe_ratio` and `dividend_yield` (a ratio); one indicator of another length may be a term too (computed over the instruments the other conditions leave, or from the day's queued run: then 202 while it runs); numbers may end in k, m, bn, tn or % (`10bn`, `3%`). `sector`, `exchange`, `currency` and `quote_type` compare with `=`. An instrument without a value a condition reads (too short a history, no stored figure) does not match. Matches are ordered by the first comparison's left term, most extreme first.",
    security: keyed,
    // A term no snapshot holds may start the day's queued run.
    "x-writes": true,
    request: {
      query: z.object(ConditionsQuery).strict(),
    },
    responses: {
      200: {
        description: "The matches, with the values they were tested on",
        content: { "application/json": { schema: ConditionsAnswerSchema } },
      },
      202: {
        description:
          "A term no snapshot holds, over more instruments than an answer reads at once: its run of the day is being computed",
        content: { "application/json": { schema: QueuedScreenSchema } },
      },
    },
  }),
);

export function registerScreenConditions(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const answer = await screenByConditions({ ctx: c.get("deps"), input: c.req.valid("query") });
    if ("status" in answer) {
      c.header("Retry-After", String(RETRY_AFTER_SECONDS));
      return c.json(answer, 202);
    }
    return c.json(answer, 200);
  });
}
