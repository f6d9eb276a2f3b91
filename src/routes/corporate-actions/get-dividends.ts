import type { OpenAPIHono } from "@hono/zod-openapi";
import { getCorporateActions } from "../../services/corporate-actions/get-corporate-actions";
import type { AppEnv } from "../env";
import { CSV, MAX_AGE_S, routeOf } from "./route-of";
import { DividendsAnswerSchema, dividendsCsv, toDividendsBody } from "./schema";

const dividendsRoute = routeOf(
  "dividends",
  DividendsAnswerSchema,
  "Date,Dividends",
  "Cash dividends of one listing by ex-date, stored with its prices, checked against its adjusted closes",
  "Cash dividends of one listing by ex-date (amount per share in the listing's currency, and its source), oldest first, optionally within `from` and/or `to`; `currency`, `exchange` and `isin` choose the listing as on /eod. The events come with the delayed provider's bars, so the listing's prices are first made sure of as /eod would (ingested or topped up, ten years), and the answer carries the listing's latest check of its adjusted closes against its stored dividends and splits. When the delayed provider failed meanwhile, or the listing's events have never been read, a `warning` says so instead of failing the answer. JSON or CSV (`Date,Dividends`) with `Cache-Control: private, max-age=3600`; any key; 404 as on /eod.",
);

export function registerGetDividends(api: OpenAPIHono<AppEnv>) {
  return api.openapi(dividendsRoute, async (c) => {
    const q = c.req.valid("query");
    const found = await getCorporateActions({ ctx: c.get("deps"), input: { ...q, ...c.req.valid("param") } });
    c.header("Cache-Control", `private, max-age=${MAX_AGE_S}`);
    return q.fmt === "csv" ? c.body(dividendsCsv(found), 200, CSV) : c.json(toDividendsBody(found), 200);
  });
}
