import { z } from "@hono/zod-openapi";
import { FINDING_KINDS } from "../../domain/price-sanity";
import { DELAYED, STREAM } from "../../domain/provider-names";
import { DateParam, IsinParam, PeriodParam, TickerParam } from "../params";

/** The rate a converted bar was converted at (a weekly or monthly bar's: its close's day's). */
export const BarRateSchema = z
  .object({
    rate: z
      .string()
      .openapi({ example: "1.0876", description: "Units of the answer's currency for one of the listing's" }),
    published: z.string().openapi({ example: "2026-11-27", description: "The day of the ECB publication used" }),
    source: z.string().openapi({ example: "ecb_reference_rates" }),
    carried_forward: z.boolean().openapi({ description: "The bar's day took an earlier publication (see GET /fx)" }),
  })
  .openapi("BarRate");

/** What a converted answer says of its conversion. */
export const ConversionSchema = z
  .object({
    from: z.string().openapi({ example: "EUR" }),
    to: z.string().openapi({ example: "USD" }),
    source: z.string(),
    cross: z.string().nullable(),
    rounding: z.string(),
    notes: z.array(z.string()),
  })
  .openapi("Conversion");

export const EodBarSchema = z
  .object({
    Date: z.string().openapi({ example: "2026-11-24" }),
    Open: z.number(),
    High: z.number(),
    Low: z.number(),
    Close: z.number(),
    "Adj Close": z.number(),
    Volume: z.number().int(),
    fx: BarRateSchema.nullable().optional().openapi({ description: "With convert=: the bar's rate" }),
  })
  .openapi("EodBar");
export type EodBar = z.infer<typeof EodBarSchema>;

export const PriceWarningSchema = z
  .object({
    date: z.string(),
    kind: z.enum(FINDING_KINDS),
    repairable: z.boolean().openapi({ description: "repair=true corrects it in the answer" }),
    evidence: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  })
  .openapi("PriceWarning");

export const EodAnswerSchema = z
  .object({
    ticker: z.string(),
    listing: z.object({ ticker: z.string(), isin: z.string(), currency: z.string(), exchange: z.string().nullable() }),
    period: z.string(),
    format: z.string(),
    count: z.number().int(),
    retrieved_at: z.string().openapi({ example: "2026-11-25T14:03:11.512+00:00" }),
    data_source: z.enum(["database", DELAYED, STREAM]),
    precision: z
      .object({
        stored: z.enum(["full", "price_hint", "unchecked"]),
        note: z.string(),
      })
      .openapi({
        description:
          "The precision the listing's prices are stored at: full is every decimal the provider gave; price_hint rounded (bars stored before the service kept every decimal, stored again by the next ingestion). Also the X-Price-Precision header",
      }),
    warnings: z.array(PriceWarningSchema).openapi({
      description:
        "What the price sanity net found among the window's sessions: the provider's known glitches (a split missing or applied twice, a bar 100 times off, a bar on a closed day, a duplicated or missing session, contradicting or non-positive prices, dividend-adjusted weekly bars, fund distributions counted as dividends). Nothing is changed unless repair=true. Also the X-Price-Warnings and X-Price-Warning-Kinds headers",
    }),
    repaired: z
      .array(
        z.object({
          date: z.string(),
          kind: z.string(),
          change: z.string().openapi({ example: "close divided by 100" }),
        }),
      )
      .optional()
      .openapi({ description: "With repair=true: every change made to the stored series for this answer" }),
    conversion: ConversionSchema.optional().openapi({
      description: "With convert=: the currencies, the rates' source, how they are crossed and rounded",
    }),
    data: z.array(EodBarSchema),
  })
  .openapi("EodAnswer");
export type EodAnswer = z.infer<typeof EodAnswerSchema>;

/** Listings named per request: each costs provider calls inside one Worker invocation. */
const MAX_NAMES = 20;

export const IngestRequestSchema = z
  .object({
    tickers: z.array(TickerParam).max(MAX_NAMES).default([]),
    isins: z.array(IsinParam).max(MAX_NAMES).default([]),
    period: PeriodParam.optional().openapi({ description: "Window to make sure is stored; default ten years" }),
    from: DateParam.optional(),
    to: DateParam.optional(),
  })
  .refine((b) => b.tickers.length + b.isins.length > 0, {
    message: "name at least one ticker or ISIN",
    path: ["tickers"],
  })
  .refine((b) => b.tickers.length + b.isins.length <= MAX_NAMES, {
    message: `at most ${MAX_NAMES} tickers and ISINs together`,
    path: ["tickers"],
  })
  .openapi("IngestRequest", { example: { tickers: ["MC.PA"], period: "1y" } });

const RangeSchema = z.object({ from: z.string(), to: z.string() });

const IngestResultSchema = z.object({
  query: z.string(),
  status: z.enum(["ingested", "up_to_date", "failed", "not_found"]).openapi({
    description:
      "ingested: rows written; up_to_date: nothing missing, or the providers had nothing newer; failed: something was missing and no provider answered",
  }),
  listing_id: z.number().int().nullable(),
  ticker: z.string().nullable(),
  isin: z.string().nullable(),
  exchange: z.string().nullable(),
  currency: z.string().nullable(),
  source: z.string().nullable().openapi({ description: "Provider whose bars were stored" }),
  requested_ranges: z
    .array(RangeSchema)
    .openapi({ description: "Windows that were missing and asked of the providers (weekends are never missing)" }),
  replaced_ranges: z.array(RangeSchema).openapi({
    description: "Windows stored from the stream provider that the delayed provider served again, with adjusted closes",
  }),
  bars_fetched: z.number().int(),
  rows_written: z
    .number()
    .int()
    .openapi({ description: "Rows inserted or changed; 0 when reingesting the same range" }),
  errors: z.array(z.object({ provider: z.string(), message: z.string() })),
});
export type IngestResult = z.infer<typeof IngestResultSchema>;

export const IngestAnswerSchema = z
  .object({
    window: RangeSchema,
    count: z.number().int(),
    rows_written: z.number().int(),
    results: z.array(IngestResultSchema),
  })
  .openapi("IngestAnswer");
export type IngestAnswer = z.infer<typeof IngestAnswerSchema>;

export const EodBulkSchema = z
  .object({
    exchange: z.string().openapi({ example: "XETRA" }),
    date: z
      .string()
      .openapi({ example: "2026-11-26", description: "The session (the venue's last closed one by default)" }),
    data: z.array(
      z.object({
        ticker: z.string().openapi({ example: "SAP.DE" }),
        isin: z.string(),
        name: z.string(),
        currency: z.string(),
        date: z.string(),
        open: z.number().nullable(),
        high: z.number().nullable(),
        low: z.number().nullable(),
        close: z.number(),
        adj_close: z.number(),
        volume: z.number().int(),
        data_source: z.string().openapi({ description: "The provider the stored bar came from" }),
        fx_from: z.string().optional().openapi({ description: "With convert=: the listing's own currency" }),
        fx_rate: z.string().optional().openapi({ description: "With convert=: the rate the bar was converted at" }),
        fx_published: z.string().optional().openapi({ description: "With convert=: the rate's publication day" }),
      }),
    ),
    count: z.number().int(),
    missing_count: z.number().int(),
    missing: z
      .array(
        z.object({
          ticker: z.string(),
          isin: z.string(),
          currency: z.string(),
          reason: z.string().optional().openapi({ description: "With convert=: a currency without rates" }),
        }),
      )
      .openapi({
        description:
          "Active listings of the venue with no bar stored for the day: not refreshed yet, not traded that day, or listed later",
      }),
    conversion: z
      .object({ to: z.string(), rounding: z.string(), notes: z.array(z.string()) })
      .optional()
      .openapi({ description: "With convert=: the currency of every bar and how it was converted" }),
  })
  .openapi("EodBulk");
export type EodBulkBody = z.infer<typeof EodBulkSchema>;
