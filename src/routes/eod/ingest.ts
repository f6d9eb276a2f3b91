import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { type IngestOutcome, ingestMany } from "../../services/eod/ingest-many";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { IngestAnswerSchema, IngestRequestSchema, type IngestResult } from "./schema";

function toResult({ query, listing: l, report }: IngestOutcome): IngestResult {
  if (!report || !l) {
    return {
      query,
      status: "not_found",
      listing_id: null,
      ticker: null,
      isin: null,
      exchange: null,
      currency: null,
      source: null,
      requested_ranges: [],
      replaced_ranges: [],
      bars_fetched: 0,
      rows_written: 0,
      errors: [{ provider: "catalogue", message: `no active listing for ${query}` }],
    };
  }
  return {
    query,
    status: report.status,
    listing_id: l.id,
    ticker: l.ticker,
    isin: l.isin,
    exchange: l.exchange,
    currency: l.currency,
    source: report.source,
    requested_ranges: report.requested,
    replaced_ranges: report.replaced,
    bars_fetched: report.fetched,
    rows_written: report.written,
    errors: report.errors.map(({ provider, message }) => ({ provider, message })),
  };
}

const route = createRoute(
  withErrors({
    method: "post",
    path: "/historical/ingest",
    "x-mcp-tool": "ingest_prices",
    "x-access": "full",
    tags: ["Prices"],
    description:
      "Makes sure the daily bars of the listings named by `tickers` and/or `isins` (20 names in all at most) are stored over a window: `from`/`to`, a `period`, or ten years by default, always up to yesterday. Every active listing bearing each name is ingested (delayed provider first, stream provider as fallback, three listings at a time) and only the missing ranges are fetched, so a second identical call writes nothing. Each result reports its status (`ingested`, `up_to_date`, `failed`, or `not_found` for a name without an active listing: this route never adds instruments), the ranges requested and replaced, rows written and provider errors. Needs a full-access key.",
    summary: "Stores the missing daily bars of listings named by ticker or ISIN (full-access key)",
    security: keyed,
    request: { body: { required: true, content: { "application/json": { schema: IngestRequestSchema } } } },
    responses: {
      200: {
        description: "What was ingested per listing, with counts and errors",
        content: { "application/json": { schema: IngestAnswerSchema } },
      },
    },
  }),
);

export function registerIngest(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const { window, outcomes } = await ingestMany({ ctx: c.get("deps"), input: c.req.valid("json") });
    const results = outcomes.map(toResult);
    return c.json(
      { window, count: results.length, rows_written: results.reduce((n, r) => n + r.rows_written, 0), results },
      200,
    );
  });
}
