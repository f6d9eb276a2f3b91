import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getEod } from "../../services/eod/get-eod";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { BoolParam, DateParam, ListingChoiceQuery, PeriodParam, TickerParam } from "../params";
import { EodAnswerSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/eod/{ticker}",
      tags: ["Assets and listings"],
      summary: "End-of-day prices of one listing (ingested on first request)",
      security: keyed,
      // For the generated nets (test/hardening): this read may write (an ingestion), and the example
      // request that exercises it.
      "x-writes": true,
      "x-example-query": "period=1y",
      request: {
        params: z.object({ ticker: TickerParam }),
        query: z.object({
          period: PeriodParam.optional().openapi({
            description: "Required unless from and to are given; with them, daily, weekly or monthly set the bar size",
          }),
          from: DateParam.optional(),
          to: DateParam.optional(),
          fmt: z.enum(["json", "csv"]).default("json"),
          order: z.enum(["a", "d"]).default("a").openapi({ description: "a: oldest first, d: newest first" }),
          repair: BoolParam.openapi({
            description:
              "Serve the series with the repairable warnings corrected (a unit glitch, a split missing or doubled, contradicting high and low, a bar of a closed day); `repaired` names each change. The stored prices are never changed",
          }),
          ...ListingChoiceQuery,
        }),
      },
      responses: {
        200: {
          description: "The bars, as JSON or as CSV (header Date,Open,High,Low,Close,Adj Close,Volume)",
          content: { "application/json": { schema: EodAnswerSchema }, "text/csv": { schema: z.string() } },
        },
      },
    },
    [404],
  ),
);

export function registerGetEod(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const answer = await getEod({
      ctx: c.get("deps"),
      input: { ticker: c.req.valid("param").ticker, ...c.req.valid("query") },
    });
    return c.body(answer.body, 200, { ...answer.headers, "content-type": answer.contentType });
  });
}
