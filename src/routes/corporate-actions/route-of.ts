// The dividends and splits routes differ only in their kind, schema and words: one builder makes both.
import { createRoute, z } from "@hono/zod-openapi";
import { keyed, withErrors } from "../openapi";
import { DateParam, ListingChoiceQuery, TickerParam } from "../params";

/** Events change only when the daily refresh stores the day's prices. */
export const MAX_AGE_S = 3_600;
const LIFETIME = `Cache-Control private, max-age ${MAX_AGE_S} s`;

const query = z.object({
  from: DateParam.optional().openapi({ description: "Events on or after this day (open when absent)" }),
  to: DateParam.optional().openapi({ description: "Events on or before this day (open when absent)" }),
  fmt: z.enum(["json", "csv"]).default("json"),
  ...ListingChoiceQuery,
});

export const routeOf = <S extends z.ZodTypeAny>(
  kind: "dividends" | "splits",
  schema: S,
  csvHeader: string,
  summary: string,
  description: string,
) =>
  createRoute(
    withErrors(
      {
        method: "get",
        path: `/${kind}/{ticker}`,
        "x-mcp-tool": `get_${kind}`,
        "x-access": "any",
        tags: ["Prices"],
        summary,
        description,
        security: keyed,
        // For the generated nets (test/hardening): this read may write (the prices' ingestion).
        "x-writes": true,
        request: { params: z.object({ ticker: TickerParam.openapi({ example: "AAPL" }) }), query },
        responses: {
          200: {
            description: `The listing's stored ${kind}, oldest first, as JSON or CSV (header ${csvHeader}). ${LIFETIME}`,
            content: { "application/json": { schema }, "text/csv": { schema: z.string() } },
          },
        },
      },
      [404],
    ),
  );

export const CSV = { "content-type": "text/csv; charset=utf-8" };
