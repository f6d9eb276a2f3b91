import { z } from "@hono/zod-openapi";
import type { EarningsCalendar } from "../../services/earnings/get-earnings-calendar";

const ReportSchema = z.object({
  ticker: z.string().openapi({ example: "AAPL", description: "The instrument's preferred listing (the /eod choice)" }),
  exchange: z.string().nullable().openapi({ example: "NASDAQ" }),
  isin: z.string().openapi({ example: "US0378331005" }),
  name: z.string().openapi({ example: "Apple Inc." }),
  period_end: z.string().openapi({ example: "2026-12-31", description: "The last day of the fiscal quarter reported" }),
  report_date: z.string().nullable().openapi({
    example: "2027-01-28",
    description:
      "The report's day, or the first day of the range the provider expects it in; null for a quarter reported before the service first asked (placed by its period end)",
  }),
  report_date_to: z
    .string()
    .nullable()
    .openapi({ example: null, description: "The last day of that range; null once the day is set" }),
  date_confirmed: z.boolean().openapi({ description: "The provider names one day, not a range" }),
  eps_estimate: z.number().nullable().openapi({ example: 2.67, description: "Analysts' average EPS estimate" }),
  eps_low: z.number().nullable(),
  eps_high: z.number().nullable(),
  revenue_estimate: z.number().nullable().openapi({ example: 138_400_000_000 }),
  eps_actual: z.number().nullable().openapi({ description: "Reported EPS; null until the quarter is reported" }),
  eps_difference: z.number().nullable(),
  surprise_percent: z.number().nullable().openapi({ example: 2.05, description: "Percent" }),
  updated_at: z.string().openapi({ description: "When the provider last said anything of this quarter" }),
});

export const EarningsCalendarAnswerSchema = z
  .object({
    from: z.string().openapi({ example: "2026-12-01" }),
    to: z.string().openapi({ example: "2026-12-31" }),
    count: z.number().int(),
    unknown_tickers: z.array(z.string()).openapi({ description: "Tickers asked for that no active listing bears" }),
    earnings: z.array(ReportSchema),
  })
  .openapi("EarningsCalendarAnswer");

export type EarningsCalendarBody = z.infer<typeof EarningsCalendarAnswerSchema>;

export const toEarningsCalendarBody = (c: EarningsCalendar): EarningsCalendarBody => ({
  from: c.window.from,
  to: c.window.to,
  count: c.reports.length,
  unknown_tickers: c.unknown,
  earnings: c.reports.map((r) => ({
    ticker: r.ticker,
    exchange: r.exchange,
    isin: r.isin,
    name: r.name,
    period_end: r.periodEnd,
    report_date: r.reportDate,
    report_date_to: r.reportDateTo,
    date_confirmed: r.reportDate !== null && r.reportDateTo === null,
    eps_estimate: r.epsEstimate,
    eps_low: r.epsLow,
    eps_high: r.epsHigh,
    revenue_estimate: r.revenueEstimate,
    eps_actual: r.epsActual,
    eps_difference: r.epsDifference,
    surprise_percent: r.surprisePercent,
    updated_at: r.fetchedAt.toISOString(),
  })),
});

const cell = (v: string | number | null) => (v === null ? "" : String(v));

/** The CSV form: one line a report, EODHD's column names where it has one. */
export function earningsCalendarCsv(c: EarningsCalendar): string {
  const body = toEarningsCalendarBody(c);
  const header =
    "Ticker,ISIN,Period End,Report Date,Report Date To,EPS Estimate,EPS Actual,EPS Difference,Surprise Percent";
  return `${header}\n${body.earnings
    .map(
      (r) =>
        `${[
          r.ticker,
          r.isin,
          r.period_end,
          r.report_date,
          r.report_date_to,
          r.eps_estimate,
          r.eps_actual,
          r.eps_difference,
          r.surprise_percent,
        ]
          .map(cell)
          .join(",")}\n`,
    )
    .join("")}`;
}
