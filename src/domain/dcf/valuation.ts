import type Decimal from "decimal.js";
import { ddmModel } from "./ddm-model";
import { epsModel } from "./eps-model";
import { fcfModel } from "./fcf-model";
import {
  type CompanyFigures,
  companyFigures,
  dividendGrowth,
  epsGrowth,
  fcfBase,
  fcfGrowth,
  type StoredFigures,
} from "./inputs";
import type { ModelName, ModelResult } from "./models";
import { Dec, rate } from "./numbers";
import { computeWacc, type RiskFreeRateSource, type Wacc } from "./wacc";

/** A valuation's assumptions: the spec's POST body, with its defaults. */
export interface Assumptions {
  projectionYears: number;
  terminalGrowth: Decimal;
  riskFreeRate: Decimal;
  riskFreeRateSource: RiskFreeRateSource;
  equityRiskPremium: Decimal;
  beta?: Decimal;
  costOfDebt?: Decimal;
  taxRate?: Decimal;
  fcfGrowth?: Decimal;
  epsGrowth?: Decimal;
  dividendGrowth?: Decimal;
}

export const DEFAULT_PROJECTION_YEARS = 5;
export const DEFAULT_TERMINAL_GROWTH = new Dec("0.025");

/** The company being valued: its stored figures, price and currencies. */
export interface Subject {
  figures: StoredFigures;
  price: Decimal | null;
  /** The quote's currency, and the statements' (null when unknown). */
  currency: string;
  reportingCurrency: string | null;
}

export interface Valuation {
  company: CompanyFigures;
  wacc: Wacc;
  /** The fiscal years whose free cash flow the fcf model's base averages. */
  fcfYears: { period_end: string; free_cash_flow: Decimal }[];
  /** How each model's first-stage growth was found (historical, analysts, client_override ...). */
  growthBasis: Partial<Record<ModelName, string>>;
  /** Values a model in the valuation at another discount rate and terminal growth (the sensitivity grid). */
  at(model: ModelName, discountRate: Decimal, terminalGrowth: Decimal): ModelResult;
  results: ModelResult[];
}

/**
 * Values `subject` with the requested models: the WACC from its figures (and the assumptions'
 * overrides), each model's inputs from its statements and highlights. Pure: every figure comes in.
 */
export function valueCompany(subject: Subject, a: Assumptions, models: readonly ModelName[]): Valuation {
  const f = subject.figures;
  const company = companyFigures(f);
  const price = subject.price;
  const equityValue = price && company.shares ? price.times(company.shares) : company.marketCap;
  const sameCurrency = subject.reportingCurrency === null || subject.reportingCurrency === subject.currency;
  const wacc = computeWacc(
    {
      riskFreeRate: a.riskFreeRate,
      riskFreeRateSource: a.riskFreeRateSource,
      equityRiskPremium: a.equityRiskPremium,
      beta: company.beta,
      interestExpense: company.interestExpense,
      incomeTax: company.incomeTax,
      pretaxIncome: company.pretaxIncome,
      marketCap: equityValue,
      totalDebt: company.totalDebt,
    },
    { beta: a.beta, costOfDebt: a.costOfDebt, taxRate: a.taxRate },
  );
  if (!sameCurrency)
    wacc.warnings.push(
      `market value in ${subject.currency} weighed against debt in ${subject.reportingCurrency}: the weights are approximate`,
    );

  const base = fcfBase(f.cashflow);
  const growth = {
    fcf: fcfGrowth(f, a.fcfGrowth, a.terminalGrowth),
    eps: epsGrowth(f, a.epsGrowth, a.terminalGrowth),
    ddm: dividendGrowth(f, a.dividendGrowth, a.terminalGrowth),
  };
  const at = (model: ModelName, discountRate: Decimal, terminalGrowth: Decimal): ModelResult => {
    const years = a.projectionYears;
    switch (model) {
      case "fcf": {
        const r = fcfModel({
          baseCashFlow: base.base,
          growth: growth.fcf.growth,
          years,
          wacc: discountRate,
          terminalGrowth,
          netDebt: company.netDebt,
          shares: company.shares,
          price,
          warnings: [...base.warnings, ...growth.fcf.warnings],
        });
        // Per-share cash flow in one currency and a price in another is no upside without an exchange rate.
        if (!sameCurrency && r.value !== null)
          return {
            ...r,
            value: null,
            upsidePct: null,
            reason: `the statements are in ${subject.reportingCurrency} and the price in ${subject.currency}: no per-share value without an exchange rate`,
          };
        return r;
      }
      case "eps": {
        const r = epsModel({
          eps: company.eps,
          growth: growth.eps.growth,
          years,
          costOfEquity: discountRate,
          peRatio: company.peRatio,
          payoutRatio: company.payoutRatio,
          price,
          warnings: growth.eps.warnings,
        });
        // The statements' EPS is in their currency; a price in another has no P/E with it.
        if (!sameCurrency && company.epsFromStatements && r.value !== null)
          return {
            ...r,
            value: null,
            upsidePct: null,
            reason: `the EPS is the statements' (${subject.reportingCurrency}) and the price in ${subject.currency}: no per-share value without an exchange rate`,
          };
        return r;
      }
      case "ddm":
        return ddmModel({
          dividend: company.dividend,
          growth: growth.ddm.growth,
          years,
          costOfEquity: discountRate,
          terminalGrowth,
          price,
          warnings: company.dividendIsForward
            ? [...growth.ddm.warnings, "trailing dividend unknown: the forward annual rate used as this year's"]
            : growth.ddm.warnings,
        });
    }
  };
  const rateOf = (m: ModelName) => (m === "fcf" ? wacc.wacc : wacc.costOfEquity);
  return {
    company,
    wacc,
    fcfYears: base.years,
    growthBasis: { fcf: growth.fcf.basis, eps: growth.eps.basis, ddm: growth.ddm.basis },
    at,
    results: models.map((m) => at(m, rateOf(m), rate(a.terminalGrowth))),
  };
}
