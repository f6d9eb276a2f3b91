import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { BULK_CSV_HEADER, bulkEod } from "../../services/eod/bulk";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { DateParam, ExchangeParam } from "../params";
import { EodBulkSchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/eod/bulk/{exchange}",
      tags: ["Assets and listings"],
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
