import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getEod } from "../../services/eod/get-eod";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { BoolParam, ConvertParam, DateParam, ListingChoiceQuery, PeriodParam, TickerParam } from "../params";
import { EodAnswerSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/eod/{ticker}",
      "x-mcp-tool": "get_eod_prices",
      "x-access": "any",
      tags: ["Prices"],
      description:
        "End-of-day bars of one listing, over a `period` (1d, 5d, 1mo to 10y, ytd, max; `weekly` and `monthly` give weekly or monthly bars) or over `from` and `to` given together (then `period` may only be daily, weekly or monthly, as the bar size); among listings sharing the ticker the primary one is read unless `currency`, `exchange` or `isin` narrow the choice, and the answer's `listing` says which was read. If the window has no stored bars, the listing is ingested first (ten years from the delayed provider under the listing's verified symbol, the stream provider as fallback), a stored series lacking recent sessions is topped up, and a ticker the catalogue lacks may be added by discovery; answers are cached 24 hours (dropped when the ticker is ingested again), `repair=true` serves corrected bars without changing storage, and `warnings` lists what the price sanity net found. JSON and CSV both use the EODHD-style column `Adj Close` (fixed by the spec, whereas /eod/bulk and /ticker/{symbol}/history say `adj_close` in JSON), and this route's window is `from`/`to` while the technical routes take `from_date`/`to_date`. Errors: 400 for a bad ticker, period, date, ISIN or a window wholly in the future; 404 with a `reason` when nothing is stored and nothing could be ingested (a window on which the market was closed included); 503 when a provider failed and a retry may succeed; any key.",
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
          convert: ConvertParam,
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
