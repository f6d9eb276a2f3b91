import { type OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../deps";
import { type IngestOutcome, ingestMany } from "../../services/eod/ingest-many";
import { keyed, withErrors } from "../openapi";
import { DateParam, IsinParam, PeriodParam, TickerParam } from "../params";

/** Listings named per request: each costs provider calls inside one Worker invocation. */
const MAX_NAMES = 20;

const BodySchema = z
  .object({
    tickers: z.array(TickerParam).max(MAX_NAMES).default([]),
    isins: z.array(IsinParam).max(MAX_NAMES).default([]),
    period: PeriodParam.optional().openapi({ description: "Window to make sure is stored; default ten years" }),
    from: DateParam.optional(),
    to: DateParam.optional(),
  })
  .refine((b) => b.tickers.length + b.isins.length > 0, { message: "name at least one ticker or ISIN", path: ["tickers"] })
  .refine((b) => b.tickers.length + b.isins.length <= MAX_NAMES, { message: `at most ${MAX_NAMES} tickers and ISINs together`, path: ["tickers"] })
  .openapi("IngestRequest");

const RangeSchema = z.object({ from: z.string(), to: z.string() });

const ResultSchema = z.object({
  query: z.string(),
  status: z.enum(["ingested", "up_to_date", "failed", "not_found"]).openapi({
    description: "ingested: rows written; up_to_date: nothing missing, or the providers had nothing newer; failed: something was missing and no provider answered",
  }),
  listing_id: z.number().int().nullable(),
  ticker: z.string().nullable(),
  isin: z.string().nullable(),
  exchange: z.string().nullable(),
  currency: z.string().nullable(),
  source: z.string().nullable().openapi({ description: "Provider whose bars were stored" }),
  requested_ranges: z.array(RangeSchema).openapi({ description: "Windows that were missing and asked of the providers (weekends are never missing)" }),
  replaced_ranges: z.array(RangeSchema).openapi({ description: "Windows stored from the stream provider that the delayed provider served again, with adjusted closes" }),
  bars_fetched: z.number().int(),
  rows_written: z.number().int().openapi({ description: "Rows inserted or changed; 0 when reingesting the same range" }),
  errors: z.array(z.object({ provider: z.string(), message: z.string() })),
});

const AnswerSchema = z
  .object({ window: RangeSchema, count: z.number().int(), rows_written: z.number().int(), results: z.array(ResultSchema) })
  .openapi("IngestAnswer");

function toResult({ query, listing: l, report }: IngestOutcome): z.infer<typeof ResultSchema> {
  if (!report || !l) {
    return { query, status: "not_found", listing_id: null, ticker: null, isin: null, exchange: null, currency: null, source: null, requested_ranges: [], replaced_ranges: [], bars_fetched: 0, rows_written: 0, errors: [{ provider: "catalogue", message: `no active listing for ${query}` }] };
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

const route = createRoute(withErrors({
  method: "post",
  path: "/historical/ingest",
  tags: ["Assets and listings"],
  summary: "Stores the missing daily bars of listings named by ticker or ISIN (full-access key)",
  security: keyed,
  request: { body: { required: true, content: { "application/json": { schema: BodySchema } } } },
  responses: {
    200: { description: "What was ingested per listing, with counts and errors", content: { "application/json": { schema: AnswerSchema } } },
  },
}));

export function registerIngest(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const { window, outcomes } = await ingestMany({ ctx: c.get("deps"), input: c.req.valid("json") });
    const results = outcomes.map(toResult);
    return c.json({ window, count: results.length, rows_written: results.reduce((n, r) => n + r.rows_written, 0), results }, 200);
  });
}
