import { z } from "@hono/zod-openapi";
import { PERIODS, isCalendarDate } from "../domain/periods";

/** Path and query parameters shared by several areas: one definition, one error message each. */

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

/** Query booleans: `true`/`false` (also 1/0). */
export const BoolParam = z
  .enum(["true", "false", "1", "0"])
  .default("false")
  .transform((s) => s === "true" || s === "1");
