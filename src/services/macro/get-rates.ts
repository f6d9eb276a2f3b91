import Decimal from "decimal.js";
import { type StoredRate, saveRate, storedRate } from "../../db/repositories/macro";
import { recordVerdicts } from "../../db/repositories/validation-results";
import { BadRequestError } from "../../domain/errors";
import { driftVerdict } from "../../domain/fundamentals/validation";
import { US_TREASURY_10Y, YIELD_SERIES, type YieldSeries, yieldSeriesOf } from "../../domain/macro/yield-series";
import { MACRO } from "../../domain/provider-names";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";

/** The default risk-free rate (spec): the US 10-year Treasury constant-maturity yield. */
export const RISK_FREE_SERIES = US_TREASURY_10Y;

/**
 * Spec "Macro rate": value is a ratio string although unit says percent; the currency whose
 * risk-free rate it is and the series' frequency are the service's additions.
 */
export interface MacroRate {
  series_id: string;
  label: string;
  value: string;
  unit: string;
  observation_date: string;
  currency: string;
  frequency: YieldSeries["frequency"];
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

function rateOf(row: StoredRate, series: YieldSeries): MacroRate {
  return {
    series_id: row.seriesId,
    label: row.label,
    value: new Decimal(row.value).toFixed(),
    unit: row.unit,
    observation_date: row.observationDate,
    currency: series.currency,
    frequency: series.frequency,
  };
}

/** The yield series of `currency` (default USD); a 400 naming those there are for another. */
export function seriesOfCurrency(currency = "USD"): YieldSeries {
  const series = yieldSeriesOf(currency.trim().toUpperCase());
  if (!series)
    throw new BadRequestError(
      `no long-term government yield of ${JSON.stringify(currency.slice(0, 12))} at the macro provider; there is one for ${YIELD_SERIES.map((s) => s.currency).join(", ")}`,
    );
  return series;
}

/**
 * Reads the series from the macro provider and stores it; answers the stored row, or the reason
 * it could not (the provider not configured, or failing).
 */
export async function fetchRiskFreeRate(
  ctx: Context,
  series: YieldSeries = RISK_FREE_SERIES,
): Promise<{ row: StoredRate } | { failure: string }> {
  const fred = ctx.providers.macro;
  if (!fred.configured) return { failure: `${MACRO} not asked: MACRO_API_KEY is not set` };
  try {
    const o = await fred.latestObservation(series.id);
    // Observations of another shape were left out: the operator sees why (the series is the "instrument").
    if (o.drifts.length)
      await recordVerdicts(ctx.db, {
        ticker: series.id,
        day: ctx.clock.today(),
        at: ctx.clock.now(),
        verdicts: o.drifts.map(driftVerdict),
      });
    const row: StoredRate = {
      seriesId: series.id,
      label: series.label,
      unit: series.unit,
      value: percentToRatio(o.value),
      observationDate: o.date,
      fetchedAt: ctx.clock.now(),
    };
    await saveRate(ctx.db, row);
    // Re-read: a concurrent read may have stored a newer observation.
    return { row: (await storedRate(ctx.db, series.id)) ?? row };
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
export async function getMacroRates({ ctx, currency }: { ctx: Context; currency?: string }): Promise<MacroRatesAnswer> {
  const series = seriesOfCurrency(currency);
  const key = cacheKeys.macro(series.id);
  const cached = await ctx.cache.get<MacroRatesAnswer>(key);
  if (cached) return { ...cached, meta: { ...cached.meta, cache_hit: true } };

  const ttlMs = cacheTtls(ctx.config).macro * 1000;
  const fresh = (row: StoredRate) => ctx.clock.now().getTime() - row.fetchedAt.getTime() < ttlMs;
  const answer = (row: StoredRate, note?: string): MacroRatesAnswer => ({
    risk_free_rate: rateOf(row, series),
    meta: { fetched_at: row.fetchedAt.toISOString(), cache_hit: false, stale: !fresh(row), ...(note ? { note } : {}) },
  });
  const remember = async (row: StoredRate | null, a: MacroRatesAnswer) => {
    const left = row
      ? Math.min(ttlMs, row.fetchedAt.getTime() + ttlMs - ctx.clock.now().getTime()) / 1000
      : RETRY_AFTER_FAILURE_S;
    if (left >= 1) await ctx.cache.set(key, a, Math.floor(left));
    return a;
  };

  const stored = await storedRate(ctx.db, series.id);
  if (stored && fresh(stored)) return remember(stored, answer(stored));
  const fetched = await fetchRiskFreeRate(ctx, series);
  if ("row" in fetched) return remember(fetched.row, answer(fetched.row));
  if (stored) return remember(null, answer(stored, fetched.failure));
  return remember(null, {
    risk_free_rate: null,
    meta: { fetched_at: null, cache_hit: false, stale: false, note: fetched.failure },
  });
}
