import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { fxSeriesCsv, getFxSeries } from "../../services/fx/get-series";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { DateParam } from "../params";
import { CurrencyParam, FxBackfillingSchema, FxSeriesSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/fx/{base}/{quote}",
      "x-mcp-tool": "get_fx_rates",
      "x-access": "any",
      tags: ["FX"],
      summary: "Daily exchange rates of a currency pair (ECB reference rates, crossed through the euro)",
      description:
        "The pair's rate on every day from `from` to `to` (default: the last 30 days; at most 3,660 days), as units of `quote` for one `base`. Rates are the ECB's euro reference rates (published each TARGET working day at 16:00 Frankfurt time, from 1999-01-04), stored once fetched; a pair without the euro is crossed through it and says so. Each day names the publication it takes and its source: a weekend, a TARGET holiday or a day not published yet carries the last publication before it (`carried_forward`, with a `note`). A currency into itself is 1. History not stored yet is fetched from the ECB in yearly windows, the newest at once and older ones through a queue: while the window's are queued the answer is 202 with them (ask again). Errors: 400 for a currency without rates, a bad date or a window over 3,660 days; 503 when no rate is stored and the ECB failed. Any key.",
      security: keyed,
      // A window not stored yet is fetched and stored (fx_rates), older years queued.
      "x-writes": true,
      request: {
        params: z.object({
          base: CurrencyParam.openapi({ example: "EUR" }),
          quote: CurrencyParam.openapi({ example: "USD" }),
        }),
        query: z.object({
          from: DateParam.optional(),
          to: DateParam.optional(),
          fmt: z.enum(["json", "csv"]).default("json"),
        }),
      },
      responses: {
        200: {
          description: "The rates, as JSON or as CSV (header date,rate,published,source,carried_forward)",
          content: { "application/json": { schema: FxSeriesSchema }, "text/csv": { schema: z.string() } },
        },
        202: {
          description: "Older years of the window are being fetched: ask again after `retry_after_seconds`",
          content: { "application/json": { schema: FxBackfillingSchema } },
        },
      },
    },
    [404],
  ),
);

export function registerGetFxSeries(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const { base, quote } = c.req.valid("param");
    const query = c.req.valid("query");
    const answer = await getFxSeries(c.get("deps"), { base, quote, ...query });
    if ("status" in answer) {
      c.header("Retry-After", String(answer.retry_after_seconds));
      return c.json(answer, 202);
    }
    if (query.fmt === "csv") return c.body(fxSeriesCsv(answer), 200, { "content-type": "text/csv; charset=utf-8" });
    return c.json(answer, 200);
  });
}
