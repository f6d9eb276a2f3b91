import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getCorporateActions } from "../../services/corporate-actions/get-corporate-actions";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { DateParam, ListingChoiceQuery, TickerParam } from "../params";
import {
  DividendsAnswerSchema,
  dividendsCsv,
  SplitsAnswerSchema,
  splitsCsv,
  toDividendsBody,
  toSplitsBody,
} from "./schema";

/** Events change only when the daily refresh stores the day's prices. */
const MAX_AGE_S = 3_600;
const LIFETIME = `Cache-Control private, max-age ${MAX_AGE_S} s`;

const query = z.object({
  from: DateParam.optional().openapi({ description: "Events on or after this day (open when absent)" }),
  to: DateParam.optional().openapi({ description: "Events on or before this day (open when absent)" }),
  fmt: z.enum(["json", "csv"]).default("json"),
  ...ListingChoiceQuery,
});

const routeOf = <S extends z.ZodTypeAny>(kind: "dividends" | "splits", schema: S, csvHeader: string, summary: string) =>
  createRoute(
    withErrors(
      {
        method: "get",
        path: `/${kind}/{ticker}`,
        tags: ["Assets and listings"],
        summary,
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

const dividendsRoute = routeOf(
  "dividends",
  DividendsAnswerSchema,
  "Date,Dividends",
  "Cash dividends of one listing by ex-date, stored with its prices, checked against its adjusted closes",
);
const splitsRoute = routeOf(
  "splits",
  SplitsAnswerSchema,
  "Date,Stock Splits",
  "Share splits of one listing, stored with its prices, checked against its adjusted closes",
);

const CSV = { "content-type": "text/csv; charset=utf-8" };

export function registerCorporateActions(api: OpenAPIHono<AppEnv>) {
  api.openapi(dividendsRoute, async (c) => {
    const q = c.req.valid("query");
    const found = await getCorporateActions({ ctx: c.get("deps"), input: { ...q, ...c.req.valid("param") } });
    c.header("Cache-Control", `private, max-age=${MAX_AGE_S}`);
    return q.fmt === "csv" ? c.body(dividendsCsv(found), 200, CSV) : c.json(toDividendsBody(found), 200);
  });
  api.openapi(splitsRoute, async (c) => {
    const q = c.req.valid("query");
    const found = await getCorporateActions({ ctx: c.get("deps"), input: { ...q, ...c.req.valid("param") } });
    c.header("Cache-Control", `private, max-age=${MAX_AGE_S}`);
    return q.fmt === "csv" ? c.body(splitsCsv(found), 200, CSV) : c.json(toSplitsBody(found), 200);
  });
}
