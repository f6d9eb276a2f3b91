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
import { inValuationCurrency, type ValuedSubject } from "./valuation-currency";

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
  valued: ValuedSubject;
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
  const valued = await inValuationCurrency(ctx, inputs);
  const valuation = valueCompany(valued.subject, assumptions, req.models);
  return {
    inputs,
    valued,
    valuation,
    assumptions,
    riskFree: rf,
    notes: [...inputs.warnings, ...valued.warnings, ...(rf.note ? [rf.note] : [])],
  };
}

/**
 * The fields every valuation answer starts with: the instrument, its price and what the figures
 * were read from. `currency` is that of every amount of the answer (the statements' when the
 * price was converted into it); the listing's own currency and price are said beside it.
 */
export function subjectOf(inputs: ValuationInputs, valued: ValuedSubject) {
  const { listing, asset } = inputs.instrument;
  const c = valued.conversion;
  return {
    ticker: listing.ticker,
    isin: listing.isin,
    name: asset.name,
    currency: valued.subject.currency,
    current_price: money(valued.subject.price),
    price_date: inputs.priceDate,
    listing_currency: inputs.currency,
    listing_price: money(inputs.price),
    price_conversion: c
      ? {
          from: c.from,
          to: c.to,
          rate: c.rate,
          published: c.published,
          source: c.source,
          carried_forward: c.carried_forward,
          ...(c.note ? { note: c.note } : {}),
        }
      : null,
  };
}

/**
 * A DCF result (spec): WACC, each requested model with the figures it was computed from, the
 * consensus over the models that have a value (weights renormalised), solvency and the analysts' target.
 */
export async function valueTicker(ctx: Context, req: DcfRequest) {
  const { inputs, valued, valuation: v, assumptions, riskFree, notes } = await valuationOf(ctx, req);
  if (req.nonPayerDdm === "not_found" && req.models.includes("ddm") && v.company.dividend === null)
    throw new NoDataError(
      `${inputs.instrument.listing.ticker} pays no dividend`,
      "the ddm model values dividends: ask for fcf or eps",
    );
  const weights = { ...DEFAULT_WEIGHTS, ...req.weights };
  const price = valued.subject.price;
  const consensus = consensusOf(v.results, weights);
  const models = presentModels(v.results, v);
  const ddm = models.ddm;
  if (ddm && v.company.dividend === null) {
    // compare: shown at zero, left out of the consensus (its result has no value).
    ddm.intrinsic_value_per_share = "0";
    ddm.warnings = [...ddm.warnings, "the company pays no dividend: valued at 0 and left out of the consensus"];
  }
  return {
    ...subjectOf(inputs, valued),
    shares_outstanding: money(v.company.shares),
    wacc: presentWacc(v.wacc, riskFree),
    models,
    consensus_value: money(consensus.value),
    consensus_upside_pct: percent(upsidePct(consensus.value, price)),
    consensus_weights: Object.fromEntries(Object.entries(consensus.weights).map(([m, w]) => [m, ratio(w) as string])),
    analyst_target: money(v.company.targetPrice),
    analyst_target_upside_pct: percent(upsidePct(v.company.targetPrice, price)),
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
