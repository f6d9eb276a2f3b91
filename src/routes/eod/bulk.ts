import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { BULK_CSV_HEADER, bulkEod } from "../../services/eod/bulk";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { ConvertParam, DateParam, ExchangeParam } from "../params";
import { EodBulkSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/eod/bulk/{exchange}",
      "x-mcp-tool": "get_eod_bulk",
      "x-access": "any",
      tags: ["Prices"],
      description:
        "One session's stored daily bar for every listing of a venue, read from the database only (the daily refresh fills it; no provider is asked). `date` defaults to the venue's last closed session; a later date is a 400, a day the venue was closed a 404 saying so, and an unknown venue a 404. JSON gives the bars plus `missing` (active listings without a bar that day); CSV (`Ticker,ISIN,Currency,Date,Open,High,Low,Close,Adj Close,Volume,Source`) leaves those out. Note the naming: the JSON field here is `adj_close`, while the CSV column and /eod's JSON keep the EODHD-compatible `Adj Close` the spec fixes for /eod; `Cache-Control: private, max-age=300`, any key.",
      summary: "A day's prices of every active listing of a venue, from the stored bars",
      security: keyed,
      request: {
        params: z.object({
          exchange: ExchangeParam.openapi({
            example: "XETRA",
            description: "The catalogue's exchange code, case ignored",
          }),
        }),
        query: z.object({
          date: DateParam.optional().openapi({
            example: "2026-11-26",
            description: "A session of the venue, at most its last closed one (the default)",
          }),
          fmt: z.enum(["json", "csv"]).default("json"),
          convert: ConvertParam.openapi({
            description:
              "Every bar in this currency at the day's ECB reference rate (the venue's close decides the publication): prices × rate rounded half to even to 6 decimals, each row's `fx_from`, `fx_rate` and `fx_published` (CSV: three more columns), `conversion` in JSON; a row whose currency has no rates is listed in `missing` with why",
          }),
        }),
      },
      responses: {
        200: {
          description: `Each listing's stored bar of the day, read a thousand listings a query and written a page at a time; as JSON, or as CSV (header ${BULK_CSV_HEADER}; listings without a bar left out). Cache-Control private, max-age=300: the refresh may still add bars that day`,
          content: { "application/json": { schema: EodBulkSchema }, "text/csv": { schema: z.string() } },
        },
      },
    },
    [404],
  ),
);

export function registerBulkEod(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const answer = await bulkEod({
      ctx: c.get("deps"),
      input: { exchange: c.req.valid("param").exchange, ...c.req.valid("query") },
    });
    return c.body(answer.body, 200, {
      "content-type": answer.contentType,
      "cache-control": `private, max-age=${answer.maxAgeSeconds}`,
    });
  });
}
