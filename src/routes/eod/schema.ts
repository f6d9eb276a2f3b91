import { z } from "@hono/zod-openapi";
import { PERIODS, isCalendarDate } from "../../domain/periods";

/** A ticker as the catalogue writes them: at most 10 letters, digits, dots and hyphens (spec Limits). */
export const TickerParam = z
  .string()
  .regex(/^[A-Za-z0-9.-]{1,10}$/, "a ticker is 1 to 10 letters, digits, '.' or '-'")
  .transform((s) => s.toUpperCase())
  .openapi({ example: "MC.PA" });

export const DateParam = z.string().refine(isCalendarDate, "a date is a calendar date written YYYY-MM-DD").openapi({ example: "2026-01-02" });

export const IsinParam = z
  .string()
  .regex(/^[A-Za-z]{2}[A-Za-z0-9]{10}$/, "an ISIN is two letters followed by ten letters or digits")
  .transform((s) => s.toUpperCase())
  .openapi({ example: "FR0000121014" });

export const CurrencyParam = z.string().regex(/^[A-Za-z]{3}$/, "a currency is a three-letter code").openapi({ example: "EUR" });
export const ExchangeParam = z.string().regex(/^[A-Za-z0-9]{1,12}$/, "an exchange code is 1 to 12 letters or digits").openapi({ example: "PAR" });

export const PeriodParam = z.enum(PERIODS);

export const EodBarSchema = z
  .object({
    Date: z.string().openapi({ example: "2026-11-24" }),
    Open: z.number(),
    High: z.number(),
    Low: z.number(),
    Close: z.number(),
    "Adj Close": z.number(),
    Volume: z.number().int(),
  })
  .openapi("EodBar");

export const EodAnswerSchema = z
  .object({
    ticker: z.string(),
    listing: z.object({ ticker: z.string(), isin: z.string(), currency: z.string(), exchange: z.string().nullable() }),
    period: z.string(),
    format: z.string(),
    count: z.number().int(),
    retrieved_at: z.string().openapi({ example: "2026-11-25T14:03:11.512+00:00" }),
    data_source: z.enum(["database", "delayed_provider", "stream_provider"]),
    data: z.array(EodBarSchema),
  })
  .openapi("EodAnswer");
