import type Decimal from "decimal.js";
import { consensusOf, DEFAULT_WEIGHTS, type ModelName } from "../../domain/dcf/models";
import { Dec, upsidePct } from "../../domain/dcf/numbers";
import {
  type Assumptions,
  DEFAULT_PROJECTION_YEARS,
  DEFAULT_TERMINAL_GROWTH,
  type Valuation,
  valueCompany,
} from "../../domain/dcf/valuation";
import { NoDataError } from "../../domain/errors";
import type { Context } from "../../platform/context";
import { loadValuationInputs, type ValuationInputs } from "./load-inputs";
import { money, percent, presentModels, presentSolvency, presentWacc, ratio } from "./present";
import { type RiskFreeChoice, riskFreeRate } from "./risk-free";

/** A valuation request: the spec's POST body in the service's terms (GET uses the defaults). */
export interface DcfRequest {
  ticker: string;
  models: readonly ModelName[];
  projectionYears?: number;
  terminalGrowth?: Decimal;
  riskFreeRate?: Decimal;
  equityRiskPremium?: Decimal;
  beta?: Decimal;
  costOfDebt?: Decimal;
  taxRate?: Decimal;
  fcfGrowth?: Decimal;
  epsGrowth?: Decimal;
  dividendGrowth?: Decimal;
  weights?: Partial<Record<ModelName, number>>;
  /**
   * A ddm asked of a company without a dividend: a 404 (POST), or an entry valued at zero with a
   * warning and left out of the consensus (compare).
   */
  nonPayerDdm: "not_found" | "zero";
}

/** Loads what is stored of the ticker and the risk-free rate, and values it under the request's assumptions. */
export async function valuationOf(
  ctx: Context,
  req: Omit<DcfRequest, "nonPayerDdm" | "weights">,
): Promise<{
  inputs: ValuationInputs;
  valuation: Valuation;
  assumptions: Assumptions;
  riskFree: RiskFreeChoice;
  notes: string[];
}> {
  const inputs = await loadValuationInputs(ctx, req.ticker);
  // The cash flows are the statements': discounted at the rate of their currency.
  const rf = await riskFreeRate(ctx, req.riskFreeRate, inputs.reportingCurrency ?? inputs.currency);
  const assumptions: Assumptions = {
    projectionYears: req.projectionYears ?? DEFAULT_PROJECTION_YEARS,
    terminalGrowth: req.terminalGrowth ?? DEFAULT_TERMINAL_GROWTH,
    riskFreeRate: rf.rate,
    riskFreeRateSource: rf.source,
    equityRiskPremium: req.equityRiskPremium ?? new Dec(ctx.config.DCF_EQUITY_RISK_PREMIUM),
    beta: req.beta,
    costOfDebt: req.costOfDebt,
    taxRate: req.taxRate,
    fcfGrowth: req.fcfGrowth,
    epsGrowth: req.epsGrowth,
    dividendGrowth: req.dividendGrowth,
  };
  const valuation = valueCompany(
    {
      figures: inputs.figures,
      price: inputs.price,
      currency: inputs.currency,
      reportingCurrency: inputs.reportingCurrency,
    },
    assumptions,
    req.models,
  );
  return {
    inputs,
    valuation,
    assumptions,
    riskFree: rf,
    notes: [...inputs.warnings, ...(rf.note ? [rf.note] : [])],
  };
}

/** The fields every valuation answer starts with: the instrument, its price and what the figures were read from. */
export function subjectOf(inputs: ValuationInputs) {
  const { listing, asset } = inputs.instrument;
  return {
    ticker: listing.ticker,
    isin: listing.isin,
    name: asset.name,
    currency: inputs.currency,
    current_price: money(inputs.price),
    price_date: inputs.priceDate,
  };
}

/**
 * A DCF result (spec): WACC, each requested model with the figures it was computed from, the
 * consensus over the models that have a value (weights renormalised), solvency and the analysts' target.
 */
export async function valueTicker(ctx: Context, req: DcfRequest) {
  const { inputs, valuation: v, assumptions, riskFree, notes } = await valuationOf(ctx, req);
  if (req.nonPayerDdm === "not_found" && req.models.includes("ddm") && v.company.dividend === null)
    throw new NoDataError(
      `${inputs.instrument.listing.ticker} pays no dividend`,
      "the ddm model values dividends: ask for fcf or eps",
    );
  const weights = { ...DEFAULT_WEIGHTS, ...req.weights };
  const consensus = consensusOf(v.results, weights);
  const models = presentModels(v.results, v);
  const ddm = models.ddm;
  if (ddm && v.company.dividend === null) {
    // compare: shown at zero, left out of the consensus (its result has no value).
    ddm.intrinsic_value_per_share = "0";
    ddm.warnings = [...ddm.warnings, "the company pays no dividend: valued at 0 and left out of the consensus"];
  }
  return {
    ...subjectOf(inputs),
    shares_outstanding: money(v.company.shares),
    wacc: presentWacc(v.wacc, riskFree),
    models,
    consensus_value: money(consensus.value),
    consensus_upside_pct: percent(upsidePct(consensus.value, inputs.price)),
    consensus_weights: Object.fromEntries(Object.entries(consensus.weights).map(([m, w]) => [m, ratio(w) as string])),
    analyst_target: money(v.company.targetPrice),
    analyst_target_upside_pct: percent(upsidePct(v.company.targetPrice, inputs.price)),
    solvency: presentSolvency(v),
    assumptions: {
      models: [...req.models],
      projection_years: assumptions.projectionYears,
      terminal_growth_rate: ratio(assumptions.terminalGrowth) as string,
      model_weights: Object.fromEntries(req.models.map((m) => [m, weights[m]])),
    },
    data: {
      fundamentals_fetch_date: inputs.snapshot.fetchDate,
      fiscal_year_end: v.company.fiscalYearEnd,
      statements_currency: inputs.reportingCurrency,
    },
    warnings: notes,
    computed_at: ctx.clock.now().toISOString(),
    cache_hit: false,
  };
}
export type DcfAnswer = Awaited<ReturnType<typeof valueTicker>>;
