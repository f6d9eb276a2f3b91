import { z } from "@hono/zod-openapi";

/** A stored row or object of figures: snake_case names, JSON numbers (ratios as ratios), dates and labels as strings. */
const Figures = z.record(z.string(), z.union([z.number(), z.string(), z.null()]));

const StatementSchema = z.object({
  annual: z.array(Figures).openapi({ description: "Fiscal years, newest first; each row has period_end and currency" }),
  quarterly: z.array(Figures).openapi({ description: "Quarters, newest first" }),
});

export const DeepDocumentSchema = z
  .object({
    asset_profile: z.object({
      isin: z.string(),
      ticker: z.string(),
      name: z.string(),
      exchange: z.string().nullable(),
      currency: z.string(),
    }),
    highlights: Figures.optional().openapi({
      description:
        "pe_ratio, forward_pe, peg_ratio, eps_ttm, dividend_yield (ratio), payout_ratio (ratio), profit_margin, operating_margin, roe, roa (ratios), revenue_ttm, ebitda, market_cap, beta, book_value_per_share, shares_outstanding, ... Only values the validation layer accepted.",
      example: { pe_ratio: 26.17, dividend_yield: 0.0131, roe: 0.2234, market_cap: 1969955039801 },
    }),
    statements: z.object({ income: StatementSchema, balance: StatementSchema, cashflow: StatementSchema }).optional(),
    earnings_history: z.array(Figures).optional().openapi({
      description: "quarter_end, period, eps_actual, eps_estimate, eps_difference, surprise_percent (percent)",
    }),
    earnings_trend: z.array(Figures).optional().openapi({
      description:
        "Analysts' estimates per horizon (0q, +1q, 0y, +1y): growth (ratio), eps_avg/low/high, revenue_avg, analysts",
    }),
    analyst_ratings: Figures.optional().openapi({
      description:
        "rating (1 strong sell to 5 strong buy), target_price, analysts, strong_buy, buy, hold, sell, strong_sell, recommendation",
    }),
    meta: z.object({
      fetched_at: z
        .string()
        .nullable()
        .openapi({ description: "When the figures shown were fetched (ISO 8601); null when nothing was ever stored" }),
      fetch_date: z.string().nullable(),
      source: z.enum(["delayed_provider", "database"]),
      cache_hit: z.boolean(),
      symbol: z.string().nullable().openapi({ description: "The verified delayed-provider symbol; null without one" }),
      note: z.string().optional().openapi({ description: "Why nothing was fetched" }),
      rejected: z
        .array(
          z.object({
            field: z.string(),
            value: z.number().nullable(),
            status: z.string(),
            reason: z.string().nullable(),
          }),
        )
        .optional()
        .openapi({ description: "Values the validation layer refused that day, and why" }),
    }),
  })
  .openapi("DeepFundamentals");
export type DeepFundamentalsAnswer = z.infer<typeof DeepDocumentSchema>;

const Section = z.record(z.string(), z.unknown());

export const RenderedFundamentalsSchema = z
  .object({
    General: Section,
    Highlights: Section.optional(),
    Valuation: Section.optional(),
    SharesStats: Section.optional(),
    Technicals: Section,
    SplitsDividends: Section.optional(),
    AnalystRatings: Section.optional(),
    Holders: Section.optional(),
    InsiderTransactions: Section.optional(),
    ESGScores: Section.optional(),
    Earnings: Section.optional(),
    Financials: Section.optional(),
    ETF_Data: Section.optional().openapi({ description: "Present only for an ETF (which has no statements)" }),
    Providers: z.record(z.string(), Section).openapi({
      description:
        "What each provider returned: status ok, error (with the error), not_queried (with the reason) or not_applicable; a scraped page's figures with the validation layer's verdicts",
    }),
    Sources: z.record(z.string(), z.record(z.string(), z.string())).openapi({
      description:
        "section -> field -> where the figure came from: delayed_provider, 'database (<fetch_date>)', a scraped provider's name, or catalogue (the instrument's identity)",
      example: { Highlights: { PERatio: "delayed_provider", DividendYield: "database (2026-11-25)" } },
    }),
    Currencies: z
      .object({
        Trading: z.string().openapi({ description: "The listing's currency: price, market capitalisation" }),
        Quoted: z
          .string()
          .openapi({ description: "The unit of per-share trading figures: GBp for a London line quoted in pence" }),
        Reporting: z.string().nullable().openapi({ description: "The statements' currency; null when not known" }),
        ConvertedTo: z.string().optional().openapi({ description: "With convert=: the currency of every figure" }),
        Figures: z.record(z.string(), z.record(z.string(), z.string().nullable())).openapi({
          description: "section -> field -> the currency of that money figure (Earnings and Financials by part)",
          example: { Highlights: { MarketCapitalization: "USD", EBITDA: "CNY", EarningsShare: "USD" } },
        }),
      })
      .openapi({
        description:
          "The service's own section: which figures are in the trading and which in the reporting currency (they differ for a company such as Alibaba, reporting in yuan and trading in dollars)",
      }),
    Conversion: z
      .object({
        To: z.string(),
        Rates: z.record(
          z.string(),
          z.object({ rate: z.string(), published: z.string(), source: z.string(), basis: z.string() }),
        ),
        Method: z.string(),
        Rounding: z.string(),
        Notes: z.array(z.string()),
      })
      .optional()
      .openapi({
        description:
          "With convert=: the newest rate of each currency into To, the method (balance sheets at their period end's rate, flows at their period's average, each row's fx_rate and fx_basis) and rounding",
      }),
  })
  .openapi("RenderedFundamentals", {
    description:
      "EODHD's fundamentals layout (section and field names as EODHD spells them); ratios stay ratios (DividendYield 0.0043), EODHD's percents stay percents (PercentInsiders 1.71)",
  });

export const RawFundamentalsSchema = z.record(z.string(), Section).openapi("RawFundamentals", {
  description: "Each asked provider's answer as it came (status ok and answer), or its error",
});

export const FundamentalsAnswerSchema = z.union([RenderedFundamentalsSchema, RawFundamentalsSchema]);
export type FundamentalsAnswer = z.infer<typeof FundamentalsAnswerSchema>;
export type RenderedFundamentalsAnswer = z.infer<typeof RenderedFundamentalsSchema>;
export type RawFundamentalsAnswer = z.infer<typeof RawFundamentalsSchema>;

const StatementRows = z.object({ annual: z.array(Figures), quarterly: z.array(Figures) });

export const LegacyFinancialsSchema = z
  .object({
    symbol: z.string(),
    source: z.literal("delayed_provider"),
    statements: z.object({ income: StatementRows, balance: StatementRows, cashflow: StatementRows }).openapi({
      description:
        "Rows newest first, each with period_end and the provider's line items in snake_case (total_revenue, net_income, free_cash_flow ...), signs as the provider gives them",
    }),
  })
  .openapi("LegacyFinancials");
export type LegacyFinancialsAnswer = z.infer<typeof LegacyFinancialsSchema>;
