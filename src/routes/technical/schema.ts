import { z } from "@hono/zod-openapi";
import { RESOLUTIONS, type Resolution } from "../../domain/indicators/request";
import { OPERATORS, type Operator } from "../../domain/screen-query";
import { csvList, DateParam, TickerParam } from "../params";

export const ResolutionParam = z.enum(RESOLUTIONS).default("1D").openapi({
  description: "1D, 1W and 1M read the EOD prices; 1min the 1-minute candles saved by the realtime stream",
});

/** An integer query parameter (query strings are text). */
export const intParam = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Comma-separated indicator names (`sma_50,rsi,macd`), at most 50 characters each. */
export const IndicatorListParam = (dflt: string) =>
  csvList(
    z
      .string()
      .max(600)
      .regex(/^[A-Za-z0-9_.,\s]*$/, "indicator names are letters, digits, '_' and '.', separated by commas")
      .default(dflt)
      .transform((s) =>
        s
          .split(",")
          .map((x) => x.trim())
          .filter((x) => x.length > 0),
      ),
  ).openapi({
    type: "string",
    default: dflt,
    maxLength: 600,
    example: dflt,
    description:
      "Comma-separated indicators with their parameters; no cap on their number, but at most 1,000,000 values (each output series over every bar) per answer",
  });

export const WindowQuery = {
  resolution: ResolutionParam,
  from_date: DateParam.optional(),
  to_date: DateParam.optional(),
};

/** The wire window (snake_case) as the services take it: one mapping for every technical route. */
export function seriesWindow(q: { resolution: Resolution; from_date?: string; to_date?: string; limit?: number }) {
  return { resolution: q.resolution, fromDate: q.from_date, toDate: q.to_date, limit: q.limit };
}

export const IndicatorResultSchema = z
  .object({
    ticker: z.string(),
    indicator: z.string(),
    resolution: z.enum(RESOLUTIONS),
    category: z.string(),
    params: z.record(z.string(), z.number()).openapi({ example: { length: 14 } }),
    from_date: z.string().nullable(),
    to_date: z.string().nullable(),
    count: z.number().int(),
    series: z.array(
      z.object({
        name: z.string(),
        label: z.string(),
        values: z.array(
          z.object({
            t: z.string().openapi({ example: "2026-11-24T00:00:00Z" }),
            v: z.string().nullable().openapi({ example: "54.2718349012" }),
          }),
        ),
      }),
    ),
    cached: z.boolean(),
    calculated_at: z.string(),
  })
  .openapi("IndicatorResult");
export type IndicatorResult = z.infer<typeof IndicatorResultSchema>;

export const IndicatorErrorSchema = z.object({ indicator: z.string(), error: z.string() });

export const MultiResultSchema = z
  .object({
    ticker: z.string(),
    resolution: z.enum(RESOLUTIONS),
    count: z.number().int(),
    indicators: z.array(IndicatorResultSchema),
    errors: z.array(IndicatorErrorSchema),
    ohlcv: z
      .array(
        z.object({
          t: z.string(),
          open: z.number(),
          high: z.number(),
          low: z.number(),
          close: z.number(),
          volume: z.number(),
        }),
      )
      .optional(),
  })
  .openapi("MultiIndicatorResult");
export type MultiResult = z.infer<typeof MultiResultSchema>;

const column = z.array(z.number());
export const IndicatorChartSchema = z
  .object({
    ticker: z.string(),
    resolution: z.string(),
    timestamps: z.array(z.string()),
    ohlcv: z.object({ open: column, high: column, low: column, close: column, volume: column }),
    indicators: z
      .record(z.string(), z.array(z.number().nullable()))
      .openapi({ description: "Column name -> values aligned on timestamps (null during the warm-up)" }),
    errors: z.array(IndicatorErrorSchema),
  })
  .openapi("IndicatorChart");
export type ChartAnswer = z.infer<typeof IndicatorChartSchema>;

export const IndicatorCatalogueSchema = z
  .object({
    count: z.number().int(),
    indicators: z.array(
      z.object({
        name: z.string(),
        label: z.string(),
        category: z.string(),
        params: z.array(
          z.object({
            name: z.string(),
            default: z.number(),
            min: z.number(),
            max: z.number(),
            integer: z.boolean(),
            description: z.string(),
          }),
        ),
        outputs: z.array(z.object({ name: z.string(), label: z.string() })),
        min_bars: z.number().int().openapi({ description: "Bars needed for one value with the default parameters" }),
        intraday_only: z.boolean(),
      }),
    ),
  })
  .openapi("IndicatorCatalogue");
export type IndicatorCatalogue = z.infer<typeof IndicatorCatalogueSchema>;

/** What every screen says of a matched instrument: which, and the last stored bar its values are computed to. */
export const screenedInstrument = {
  ticker: z.string(),
  name: z.string(),
  isin: z.string(),
  as_of: z.string().openapi({ description: "The last stored daily bar the values are computed to" }),
  close: z.string().nullable().openapi({ description: "That bar's close, decimal string" }),
  missing_session: z.string().nullable().openapi({
    description:
      "The venue's last closed session when the instrument's bars stop before it (its refresh is behind; the values are as of `as_of`), else null",
  }),
};

export const ScreenResultSchema = z
  .object({
    indicator: z.string(),
    params: z.record(z.string(), z.number()),
    operator: z.enum(Object.keys(OPERATORS) as [Operator, ...Operator[]]),
    value: z.number(),
    resolution: z.string(),
    matches: z.array(
      z.object({
        ...screenedInstrument,
        value: z.string().openapi({ description: "Last indicator value, decimal string" }),
      }),
    ),
    total: z.number().int().openapi({ description: "Matches before the limit" }),
    screened: z.number().int().openapi({ description: "Instruments whose last value was tested" }),
    skipped: z.number().int().openapi({ description: "Instruments without enough stored bars, left out" }),
    run_id: z.number().int().nullable().openapi({
      description:
        "The queued run of the day the values come from; null when read from snapshots or computed for this answer",
    }),
    calculated_at: z.string(),
  })
  .openapi("ScreenResult");

export const ScreenRunSchema = z
  .object({
    id: z.number().int(),
    indicator: z.string(),
    params: z.record(z.string(), z.number()),
    resolution: z.string(),
    day: z.string().openapi({ description: "The UTC day the run answers" }),
    status: z.enum(["running", "finished"]),
    shares: z.number().int().openapi({ description: "Shares of the instruments, one queue message each" }),
    shares_done: z.number().int(),
    instruments: z.number().int().openapi({ description: "Instruments computed so far" }),
    skipped: z.number().int().openapi({ description: "Of those, without enough stored bars" }),
    started_at: z.string(),
    finished_at: z.string().nullable(),
    poll: z.string(),
  })
  .openapi("ScreenRun");

export const QueuedScreenSchema = z
  .object({ status: z.literal("running"), message: z.string(), run: ScreenRunSchema })
  .openapi("QueuedScreen");
export type ScreenAnswer = z.infer<typeof ScreenResultSchema>;

export const TechnicalBatchRequestSchema = z
  .object({
    tickers: z.array(TickerParam).min(1).max(1000).openapi({ description: "At most TECHNICAL_MAX_BATCH_TICKERS (20)" }),
    indicators: z
      .array(z.string().max(50))
      .min(1)
      .max(1000)
      .openapi({ description: "At most TECHNICAL_MAX_BATCH_INDICATORS (10)", example: ["rsi_14", "macd"] }),
    resolution: z.enum(RESOLUTIONS).default("1D"),
    from_date: DateParam.nullable().default(null),
    to_date: DateParam.nullable().default(null),
    limit: z.number().int().min(1).max(100_000).optional().openapi({
      description:
        "Bars answered per ticker (the newest of the window); default TECHNICAL_DEFAULT_LIMIT (500). Values are computed over the stored history",
    }),
    include_ohlcv: z.boolean().default(false),
  })
  .openapi("TechnicalBatchRequest", { example: { tickers: ["MC.PA", "AAPL"], indicators: ["rsi_14", "macd"] } });

export const TechnicalBatchAnswerSchema = z.record(z.string(), MultiResultSchema).openapi("TechnicalBatchAnswer");
export type BatchAnswer = z.infer<typeof TechnicalBatchAnswerSchema>;
