import Decimal from "decimal.js";
import { type StoredRate, saveRate, storedRate } from "../../db/repositories/macro";
import { recordVerdicts } from "../../db/repositories/validation-results";
import { driftVerdict } from "../../domain/fundamentals/validation";
import { MACRO } from "../../domain/provider-names";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";

/** The risk-free rate of the valuation: the US 10-year Treasury constant-maturity yield. */
export const RISK_FREE_SERIES = {
  id: "DGS10",
  label: "Market Yield on U.S. Treasury Securities at 10-Year Constant Maturity",
  unit: "percent",
} as const;

/** Spec "Macro rate": value is a ratio string although unit says percent. */
export interface MacroRate {
  series_id: string;
  label: string;
  value: string;
  unit: string;
  observation_date: string;
}

export interface MacroRatesAnswer {
  risk_free_rate: MacroRate | null;
  meta: {
    /**
     * When the value was read from the macro provider (by this call or an earlier one: an answer
     * does not depend on which concurrent request did the reading).
     */
    fetched_at: string | null;
    cache_hit: boolean;
    /** The value was read more than 6 hours ago (the provider could not be asked or failed). */
    stale: boolean;
    note?: string;
  };
}

/** How long an answer without a fresh value is kept: the provider is asked again after it. */
const RETRY_AFTER_FAILURE_S = 300;

/** A provider percent ("4.12") as a plain ratio string ("0.0412"). */
export const percentToRatio = (percent: string): string => new Decimal(percent).div(100).toFixed();

function rateOf(row: StoredRate): MacroRate {
  return {
    series_id: row.seriesId,
    label: row.label,
    value: new Decimal(row.value).toFixed(),
    unit: row.unit,
    observation_date: row.observationDate,
  };
}

/**
 * Reads the series from the macro provider and stores it; answers the stored row, or the reason
 * it could not (the provider not configured, or failing).
 */
export async function fetchRiskFreeRate(ctx: Context): Promise<{ row: StoredRate } | { failure: string }> {
  const fred = ctx.providers.macro;
  if (!fred.configured) return { failure: `${MACRO} not asked: MACRO_API_KEY is not set` };
  try {
    const o = await fred.latestObservation(RISK_FREE_SERIES.id);
    // Observations of another shape were left out: the operator sees why (the series is the "instrument").
    if (o.drifts.length)
      await recordVerdicts(ctx.db, {
        ticker: RISK_FREE_SERIES.id,
        day: ctx.clock.today(),
        at: ctx.clock.now(),
        verdicts: o.drifts.map(driftVerdict),
      });
    const row: StoredRate = {
      seriesId: RISK_FREE_SERIES.id,
      label: RISK_FREE_SERIES.label,
      unit: RISK_FREE_SERIES.unit,
      value: percentToRatio(o.value),
      observationDate: o.date,
      fetchedAt: ctx.clock.now(),
    };
    await saveRate(ctx.db, row);
    // Re-read: a concurrent read may have stored a newer observation.
    return { row: (await storedRate(ctx.db, RISK_FREE_SERIES.id)) ?? row };
  } catch (err) {
    if (err instanceof ProviderError) return { failure: err.message };
    throw err;
  }
}

/**
 * GET /macro/rates (spec): (1) the cache, 6 hours; (2) the stored value when it was read from the
 * provider less than 6 hours ago; (3) the provider; (4) an older stored value, marked stale, with
 * why the provider was not used; else `risk_free_rate: null`. Values of steps 2 and 3 are cached for
 * what is left of their 6 hours; an answer without a fresh value for 5 minutes, so that a failing
 * provider is asked again soon but not by every request (each would wait for its timeout).
 */
export async function getMacroRates({ ctx }: { ctx: Context }): Promise<MacroRatesAnswer> {
  const key = cacheKeys.macro(RISK_FREE_SERIES.id);
  const cached = await ctx.cache.get<MacroRatesAnswer>(key);
  if (cached) return { ...cached, meta: { ...cached.meta, cache_hit: true } };

  const ttlMs = cacheTtls(ctx.config).macro * 1000;
  const fresh = (row: StoredRate) => ctx.clock.now().getTime() - row.fetchedAt.getTime() < ttlMs;
  const answer = (row: StoredRate, note?: string): MacroRatesAnswer => ({
    risk_free_rate: rateOf(row),
    meta: { fetched_at: row.fetchedAt.toISOString(), cache_hit: false, stale: !fresh(row), ...(note ? { note } : {}) },
  });
  const remember = async (row: StoredRate | null, a: MacroRatesAnswer) => {
    const left = row
      ? Math.min(ttlMs, row.fetchedAt.getTime() + ttlMs - ctx.clock.now().getTime()) / 1000
      : RETRY_AFTER_FAILURE_S;
    if (left >= 1) await ctx.cache.set(key, a, Math.floor(left));
    return a;
  };

  const stored = await storedRate(ctx.db, RISK_FREE_SERIES.id);
  if (stored && fresh(stored)) return remember(stored, answer(stored));
  const fetched = await fetchRiskFreeRate(ctx);
  if ("row" in fetched) return remember(fetched.row, answer(fetched.row));
  if (stored) return remember(null, answer(stored, fetched.failure));
  return remember(null, {
    risk_free_rate: null,
    meta: { fetched_at: null, cache_hit: false, stale: false, note: fetched.failure },
  });
}
