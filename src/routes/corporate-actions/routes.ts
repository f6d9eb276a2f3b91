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

const routeOf = <S extends z.ZodTypeAny>(
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

const dividendsRoute = routeOf(
  "dividends",
  DividendsAnswerSchema,
  "Date,Dividends",
  "Cash dividends of one listing by ex-date, stored with its prices, checked against its adjusted closes",
  "Cash dividends of one listing by ex-date (amount per share in the listing's currency, and its source), oldest first, optionally within `from` and/or `to`; `currency`, `exchange` and `isin` choose the listing as on /eod. The events come with the delayed provider's bars, so the listing's prices are first made sure of as /eod would (ingested or topped up, ten years), and the answer carries the listing's latest check of its adjusted closes against its stored dividends and splits. When the delayed provider failed meanwhile, or the listing's events have never been read, a `warning` says so instead of failing the answer. JSON or CSV (`Date,Dividends`) with `Cache-Control: private, max-age=3600`; any key; 404 as on /eod.",
);
const splitsRoute = routeOf(
  "splits",
  SplitsAnswerSchema,
  "Date,Stock Splits",
  "Share splits of one listing, stored with its prices, checked against its adjusted closes",
  "Share splits of one listing (date, numerator, denominator, ratio such as `4:1`, and source), oldest first, optionally within `from` and/or `to`; `currency`, `exchange` and `isin` choose the listing as on /eod. The events come with the delayed provider's bars, so the listing's prices are first made sure of as /eod would (ingested or topped up, ten years), and the answer carries the listing's latest check of its adjusted closes against its stored dividends and splits. When the delayed provider failed meanwhile, or the listing's events have never been read, a `warning` says so instead of failing the answer. JSON or CSV (`Date,Stock Splits`) with `Cache-Control: private, max-age=3600`; any key; 404 as on /eod.",
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
