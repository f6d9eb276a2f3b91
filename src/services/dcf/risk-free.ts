import type Decimal from "decimal.js";
import { Dec } from "../../domain/dcf/numbers";
import type { RiskFreeRateSource } from "../../domain/dcf/wacc";
import type { Context } from "../../platform/context";
import { getMacroRates } from "../macro/get-rates";

/**
 * The valuation's risk-free rate (rule 5): the caller's, else the macro provider's as GET
 * /macro/rates resolves it (cache, stored, provider, older stored), else DCF_RISK_FREE_RATE.
 */
export async function riskFreeRate(
  ctx: Context,
  override: Decimal | undefined,
): Promise<{ rate: Decimal; source: RiskFreeRateSource; note?: string }> {
  if (override !== undefined) return { rate: override, source: "client_override" };
  const macro = await getMacroRates({ ctx });
  if (macro.risk_free_rate) return { rate: new Dec(macro.risk_free_rate.value), source: "fred_cached" };
  return {
    rate: new Dec(ctx.config.DCF_RISK_FREE_RATE),
    source: "env_fallback",
    note: `no macro-provider rate (${macro.meta.note ?? "none stored"}): DCF_RISK_FREE_RATE used`,
  };
}
