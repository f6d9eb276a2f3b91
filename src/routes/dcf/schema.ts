import { z } from "@hono/zod-openapi";
import { MODELS } from "../../domain/dcf/models";

const decimal = z.string().openapi({ example: "18.9808" });
const nullableDecimal = decimal.nullable();
const rateString = z.string().openapi({ example: "0.09" });

const WaccSchema = z.object({
  wacc: rateString,
  cost_of_equity: rateString,
  cost_of_debt: rateString,
  tax_rate: rateString,
  weight_equity: rateString,
  weight_debt: rateString,
  beta_used: rateString,
  risk_free_rate: rateString,
  equity_risk_premium: rateString.openapi({ description: "DCF_EQUITY_RISK_PREMIUM, or the caller's" }),
  cost_of_debt_source: z.enum(["calculated", "default", "client_override"]),
  risk_free_rate_source: z.enum(["fred_cached", "env_fallback", "client_override"]),
  risk_free_rate_series: z.string().nullable().openapi({
    example: "IRLTLT01DEM156N",
    description: "The macro provider's series the rate is (null: the caller's rate or DCF_RISK_FREE_RATE)",
  }),
  risk_free_rate_currency: z.string().nullable().openapi({
    example: "EUR",
    description:
      "The currency whose government yield it is: the valuation's (its statements'), else USD's with a warning",
  }),
  risk_free_rate_date: z.string().nullable().openapi({ description: "The series' observation date" }),
  equity_value: nullableDecimal.openapi({ description: "Market value of equity the weights use (price x shares)" }),
  debt_value: decimal.openapi({ description: "Total debt the weights use" }),
  warnings: z.array(z.string()).openapi({ description: "Each default or bound applied" }),
});

const ModelSchema = z.object({
  model_name: z.string(),
  intrinsic_value_per_share: nullableDecimal.openapi({
    description: "Null when the model means nothing here (see reason)",
  }),
  upside_pct: nullableDecimal.openapi({
    description: "Percent above (+) or below (-) the current price",
    example: "18.63",
  }),
  terminal_value: nullableDecimal,
  pv_terminal: nullableDecimal,
  projected_values: z
    .array(decimal)
    .openapi({ description: "Years 1..N: free cash flow (fcf), EPS (eps), dividend per share (ddm)" }),
  present_values: z.array(decimal).openapi({ description: "projected_values[t] / (1 + discount_rate)^t" }),
  discount_rate: rateString,
  discount_rate_basis: z.enum(["wacc", "cost_of_equity"]).openapi({
    description: "fcf discounts flows to the firm at the WACC; eps and ddm flows to shareholders at the cost of equity",
  }),
  growth_basis: z
    .string()
    .nullable()
    .openapi({ description: "How the first-stage growth was found", example: "historical" }),
  inputs: z.record(z.string(), z.string().nullable()).openapi({
    description:
      "What the value is computed from: fcf value = (sum_present_values + pv_terminal - net_debt) / shares_outstanding; eps value = pv_terminal + payout_ratio x sum(present_values); ddm value = sum_present_values + pv_terminal",
  }),
  base_years: z
    .array(z.object({ period_end: z.string(), free_cash_flow: decimal }))
    .optional()
    .openapi({ description: "fcf: the fiscal years whose free cash flow base_cash_flow averages" }),
  reason: z.string().nullable(),
  warnings: z.array(z.string()),
});

/** The listing's own currency and price, and the rate its price was converted at into the statements' currency. */
const PriceConversionFields = {
  listing_currency: z.string(),
  listing_price: nullableDecimal.openapi({ description: "The last daily close in the listing's own currency" }),
  price_conversion: z
    .object({
      from: z.string(),
      to: z.string(),
      rate: z.string(),
      published: z.string(),
      source: z.string(),
      carried_forward: z.boolean(),
      note: z.string().optional(),
    })
    .nullable()
    .openapi({
      description:
        "The ECB reference rate (of the publication the price's day and venue take) the price, market capitalisation, trailing EPS, dividend and analysts' target were converted at; null when the listing trades in the statements' currency",
    }),
};

export const DcfResultSchema = z
  .object({
    ticker: z.string(),
    isin: z.string(),
    name: z.string(),
    currency: z.string().openapi({
      description:
        "The currency of every amount of the answer: the statements' (a listing trading in another currency has its price converted into it, price_conversion)",
    }),
    current_price: nullableDecimal.openapi({
      description: "The last daily close of the listing, in `currency` (converted when the listing trades in another)",
    }),
    price_date: z.string().nullable(),
    ...PriceConversionFields,
    shares_outstanding: nullableDecimal,
    wacc: WaccSchema,
    models: z.object({ fcf: ModelSchema.optional(), eps: ModelSchema.optional(), ddm: ModelSchema.optional() }),
    consensus_value: nullableDecimal,
    consensus_upside_pct: nullableDecimal,
    consensus_weights: z
      .record(z.string(), rateString)
      .openapi({ description: "Weights of the models that have a value, renormalised to sum to 1" }),
    analyst_target: nullableDecimal,
    analyst_target_upside_pct: nullableDecimal,
    solvency: z.object({
      debt_to_equity_ratio: nullableDecimal,
      net_debt_to_ebitda: nullableDecimal,
      interest_coverage_ratio: nullableDecimal,
      total_debt: nullableDecimal,
      cash: nullableDecimal,
      net_debt: nullableDecimal,
      book_equity: nullableDecimal,
      ebitda: nullableDecimal,
      notes: z.array(z.string()),
    }),
    assumptions: z.object({
      models: z.array(z.enum(MODELS)),
      projection_years: z.number().int(),
      terminal_growth_rate: rateString,
      model_weights: z.record(z.string(), z.number()),
    }),
    data: z.object({
      fundamentals_fetch_date: z.string(),
      fiscal_year_end: z.string().nullable(),
      statements_currency: z.string().nullable(),
    }),
    warnings: z.array(z.string()),
    computed_at: z.string(),
    cache_hit: z.boolean(),
  })
  .openapi("DcfResult");
export type DcfResultBody = z.infer<typeof DcfResultSchema>;

/** A rate given as a ratio within `[min, max]`; the message reminds that 2.5 % is 0.025. */
const ratioIn = (min: number, max: number) =>
  z
    .number()
    .min(min, `a ratio (0.025 = 2.5 %) of at least ${min}`)
    .max(max, `a ratio (0.025 = 2.5 %) of at most ${max}`);

export const DcfRequestSchema = z
  .object({
    models: z
      .array(z.enum(MODELS))
      .min(1)
      .max(3)
      .refine((m) => new Set(m).size === m.length, "each model at most once")
      .default(["fcf"]),
    projection_years: z.number().int().min(3).max(10).default(5),
    terminal_growth_rate: ratioIn(-0.05, 0.1).default(0.025),
    wacc_params: z
      .object({
        risk_free_rate: ratioIn(0, 0.2).optional(),
        equity_risk_premium: ratioIn(0, 0.2).optional(),
        beta_override: z.number().min(0).max(5).optional(),
        cost_of_debt_override: ratioIn(0, 0.5).optional(),
        tax_rate_override: ratioIn(0, 1).optional(),
      })
      .strict()
      .optional(),
    fcf_growth_override: ratioIn(-0.5, 1).optional(),
    eps_growth_override: ratioIn(-0.5, 1).optional(),
    dividend_growth_override: ratioIn(-0.5, 1).optional(),
    model_weights: z
      .object({
        fcf: z.number().min(0).max(1000).optional(),
        eps: z.number().min(0).max(1000).optional(),
        ddm: z.number().min(0).max(1000).optional(),
      })
      .strict()
      .optional()
      .openapi({ description: "Consensus weights, non-negative; renormalised over the models computed" }),
  })
  .strict()
  .openapi("DcfRequest", {
    example: { models: ["fcf", "eps"], projection_years: 5, terminal_growth_rate: 0.025 },
  });
export type DcfRequestBody = z.infer<typeof DcfRequestSchema>;

export const SensitivitySchema = z
  .object({
    ticker: z.string(),
    isin: z.string(),
    name: z.string(),
    currency: z.string(),
    current_price: nullableDecimal,
    price_date: z.string().nullable(),
    ...PriceConversionFields,
    model: z.enum(["fcf", "ddm"]),
    wacc_range: z.array(rateString).openapi({ description: "Rows: the discount rate (the cost of equity for ddm)" }),
    growth_range: z.array(rateString).openapi({ description: "Columns: the terminal growth" }),
    matrix: z.array(
      z.array(
        z.object({
          wacc: rateString,
          growth: rateString,
          intrinsic_value_per_share: nullableDecimal,
          upside_pct: nullableDecimal,
          reason: z
            .string()
            .optional()
            .openapi({ description: "Why a cell has no value (growth at or above the rate)" }),
        }),
      ),
    ),
    base_case: z.object({ discount_rate: z.string().nullable(), intrinsic_value_per_share: nullableDecimal }),
    computed_at: z.string(),
    cache_hit: z.boolean(),
  })
  .openapi("DcfSensitivity");
export type SensitivityBody = z.infer<typeof SensitivitySchema>;
