import type Decimal from "decimal.js";
import { Dec } from "../../domain/dcf/numbers";
import type { RiskFreeRateSource } from "../../domain/dcf/wacc";
import { yieldSeriesOf } from "../../domain/macro/yield-series";
import type { Context } from "../../platform/context";
import { getMacroRates } from "../macro/get-rates";

/** The rate a valuation discounts at, and which: the series and currency it is of, or the setting's. */
export interface RiskFreeChoice {
  rate: Decimal;
  source: RiskFreeRateSource;
  /** The series read (null: the caller's rate or the setting's). */
  series: string | null;
  /** The currency whose rate it is (null: the caller's rate or the setting's, of no stated currency). */
  currency: string | null;
  /** The series' observation date. */
  observed: string | null;
  note?: string;
}

/**
 * The valuation's risk-free rate (rule 5, per currency): the caller's, else the macro provider's
 * long-term government yield of the valuation's currency as GET /macro/rates?currency= resolves it
 * (cache, stored, provider, older stored), else DCF_RISK_FREE_RATE. A currency the macro provider
 * has no yield of takes the US Treasury's, and says so.
 */
export async function riskFreeRate(
  ctx: Context,
  override: Decimal | undefined,
  valuationCurrency: string,
): Promise<RiskFreeChoice> {
  if (override !== undefined)
    return { rate: override, source: "client_override", series: null, currency: null, observed: null };
  const own = yieldSeriesOf(valuationCurrency);
  const macro = await getMacroRates({ ctx, currency: own ? valuationCurrency : "USD" });
  const r = macro.risk_free_rate;
  const noOwn = own
    ? []
    : [`no long-term government yield of ${valuationCurrency} at the macro provider: the US Treasury's used`];
  if (r)
    return {
      rate: new Dec(r.value),
      source: "fred_cached",
      series: r.series_id,
      currency: r.currency,
      observed: r.observation_date,
      ...(noOwn.length ? { note: noOwn[0] } : {}),
    };
  return {
    rate: new Dec(ctx.config.DCF_RISK_FREE_RATE),
    source: "env_fallback",
    series: null,
    currency: null,
    observed: null,
    note: [...noOwn, `no macro-provider rate (${macro.meta.note ?? "none stored"}): DCF_RISK_FREE_RATE used`].join(
      "; ",
    ),
  };
}
