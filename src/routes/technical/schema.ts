import { z } from "@hono/zod-openapi";
import { RESOLUTIONS, type Resolution } from "../../domain/indicators/request";
import { DateParam } from "../params";

export const ResolutionParam = z.enum(RESOLUTIONS).default("1D").openapi({
  description: "1D, 1W and 1M read the EOD prices; 1min the 1-minute candles saved by the realtime stream",
});

/** An integer query parameter (query strings are text). */
export const intParam = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Comma-separated indicator names (`sma_50,rsi,macd`), at most 50 characters each. */
export const IndicatorListParam = (dflt: string) =>
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
    );

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
