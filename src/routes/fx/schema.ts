import { z } from "@hono/zod-openapi";

/** A currency as the FX routes take it: three letters, any case. */
export const CurrencyParam = z
  .string()
  .regex(/^[A-Za-z]{3}$/, "a currency is a three-letter ISO 4217 code")
  .transform((s) => s.toUpperCase());

const PairRateSchema = z.object({
  date: z.string().openapi({ example: "2026-11-28" }),
  rate: z.string().openapi({ example: "1.0876", description: "Units of the quote currency for one unit of the base" }),
  published: z.string().openapi({ example: "2026-11-27", description: "The day of the publication the rate is" }),
  source: z.string().openapi({ example: "ecb_reference_rates" }),
  carried_forward: z.boolean().openapi({ description: "The day had no publication of its own (see note)" }),
  note: z.string().optional().openapi({ example: "the 2026-11-27 publication; weekend" }),
});

export const FxSeriesSchema = z
  .object({
    base: z.string(),
    quote: z.string(),
    from: z.string(),
    to: z.string(),
    count: z.number().int(),
    cross: z.string().nullable().openapi({ description: "How the rate is made when neither currency is the euro" }),
    rounding: z.string(),
    retrieved_at: z.string(),
    data: z.array(PairRateSchema),
    notes: z.array(z.string()),
  })
  .openapi("FxSeries");
export type FxSeriesBody = z.infer<typeof FxSeriesSchema>;

export const FxBackfillingSchema = z
  .object({
    status: z.literal("backfilling"),
    message: z.string(),
    windows: z.array(z.object({ year: z.number().int(), from: z.string(), to: z.string() })),
    retry_after_seconds: z.number().int(),
  })
  .openapi("FxBackfilling");

export const FxLatestSchema = z
  .object({
    base: z.string(),
    date: z.string().openapi({ description: "The newest publication stored" }),
    source: z.string(),
    rates: z.record(z.string(), z.string()).openapi({ example: { USD: "1.0876", GBP: "0.85658", JPY: "161.15" } }),
    cross: z.string().nullable(),
    rounding: z.string(),
    retrieved_at: z.string(),
    notes: z.array(z.string()),
  })
  .openapi("FxLatest");
