import { z } from "@hono/zod-openapi";
import { isinProblem } from "../domain/isin";
import { isCalendarDate, PERIODS } from "../domain/periods";

/** Path and query parameters shared by several areas: one definition, one error message each. */

/**
 * A short code's checks: its length first, and nothing else when that fails (`abort`), then its
 * characters, then a letter or digit among them ("." or "--" names nothing, and "." would be a path
 * segment upstream). Each pattern is linear in the input: an attacker's 16,000-character segment
 * costs one length comparison.
 */
function shortCode(what: string, max: number, chars: RegExp, charsText: string) {
  return z
    .string()
    .max(max, { message: `${what} is at most ${max} characters`, abort: true })
    .regex(chars, { message: `${what} is ${charsText}, with a letter or digit`, abort: true })
    .regex(/[A-Za-z0-9]/, `${what} is ${charsText}, with a letter or digit`)
    .transform((s) => s.toUpperCase());
}

/** A ticker as the catalogue writes them: at most 10 letters, digits, dots and hyphens (spec Limits). */
export const TickerParam = shortCode("a ticker", 10, /^[A-Za-z0-9.-]+$/, "letters, digits, '.' or '-'").openapi({
  example: "MC.PA",
});

/**
 * A delayed-provider symbol as typed: ^GSPC, EURUSD=X, GC=F, BRK-B, MC.PA. Routes that ask the
 * provider with the symbol as typed take these; the 10-character ticker rule is the catalogue's.
 */
export const SymbolParam = shortCode(
  "a symbol",
  20,
  /^[A-Za-z0-9.^=-]+$/,
  "letters, digits, '.', '-', '^' or '='",
).openapi({ example: "MC.PA" });

/** Dates before 1900 have no market data anywhere; the bound also keeps year 0, which Postgres has not, out. */
const FIRST_DATE = "1900-01-01";

export const DateParam = z
  .string()
  .refine(isCalendarDate, "a date is a calendar date written YYYY-MM-DD")
  .refine((s) => s >= FIRST_DATE, `a date is ${FIRST_DATE} or later`)
  .openapi({ example: "2026-01-02" });

/**
 * An ISIN wherever one enters: its shape (spec: 400 otherwise), and its check digit, which a typo
 * almost always breaks. A wrong check digit is a 400 too, a departure from the spec's 404 for an
 * unknown ISIN: such a string names no instrument anywhere, and no provider is asked about it.
 */
export const IsinParam = z
  .string()
  .regex(/^[A-Za-z]{2}[A-Za-z0-9]{10}$/, "an ISIN is two letters followed by ten letters or digits")
  .transform((s) => s.toUpperCase())
  .superRefine((isin, ctx) => {
    // The shape is the regex's to refuse; the check digit is the domain's rule.
    const problem = isin.length === 12 ? isinProblem(isin) : null;
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({ example: "FR0000121014" });

export const CurrencyParam = z
  .string()
  .regex(/^[A-Za-z]{3}$/, "a currency is a three-letter code")
  .openapi({ example: "EUR" });
export const ExchangeParam = z
  .string()
  .regex(/^[A-Za-z0-9]{1,12}$/, "an exchange code is 1 to 12 letters or digits")
  .openapi({ example: "PAR" });

export const PeriodParam = z.enum(PERIODS);

/** How a caller chooses one listing among those sharing a ticker (the /eod rule): the one definition. */
export const ListingChoiceQuery = {
  currency: CurrencyParam.optional().openapi({ description: "Chooses a listing when several share the ticker" }),
  exchange: ExchangeParam.optional().openapi({ description: "Chooses a listing when several share the ticker" }),
  isin: IsinParam.optional().openapi({ description: "Restricts to one instrument" }),
};

/**
 * A list in a query, however the client writes it: comma-joined (`tickers=AAPL,MSFT`) or the key
 * repeated (`tickers=AAPL&tickers=MSFT`, as Python's requests sends a list), read by `schema` as
 * one comma-joined string. The one definition every list parameter uses.
 */
export const csvList = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (Array.isArray(v) ? v.join(",") : v), schema);

/** The spellings of a query boolean, in any letter case (Python's requests sends `True`/`False`). */
const TRUE_WORDS = ["true", "1", "yes"];
const FALSE_WORDS = ["false", "0", "no"];

/** Whether a query value is BoolParam's true. */
export const isTrueWord = (s: string | null): boolean => s !== null && TRUE_WORDS.includes(s.toLowerCase());

/**
 * Query booleans, the one definition every route uses: true/false, 1/0 or yes/no in any letter
 * case (`nocache=True`, `raw=TRUE`); anything else is a 400 naming the accepted values.
 */
export const BoolParam = z
  .string()
  .default("false")
  .refine((s) => [...TRUE_WORDS, ...FALSE_WORDS].includes(s.toLowerCase()), {
    message: `expected a boolean: one of ${[...TRUE_WORDS, ...FALSE_WORDS].join(", ")} (any letter case)`,
  })
  .transform(isTrueWord)
  .openapi({ type: "boolean", default: false, description: "true/false, 1/0 or yes/no, in any letter case" });

/**
 * `convert=` of the price routes: the currency to answer in (any case). Whether the service has
 * rates of it is the service's to say (a 400 naming the currencies it has).
 */
export const ConvertParam = z
  .string()
  .regex(/^[A-Za-z]{3}$/, "convert is a three-letter ISO 4217 currency code")
  .transform((s) => s.toUpperCase())
  .optional()
  .openapi({
    example: "USD",
    description:
      "Answer in this currency (one of the 31 of GET /fx/latest): each daily bar at its own day's ECB reference rate (the last publication before it on days without one, and for venues that close before 16:00 Frankfurt time), weekly and monthly bars resampled from the converted daily bars; prices are price × rate rounded half to even to 6 decimals, volumes unchanged; `conversion` and each bar's `fx` say the rate, its publication day and source (CSV: the columns FX Rate and FX Published)",
  });
