import { cacheKeys, cacheTtls } from "../../cache";
import { INDICATORS, indicatorSpec } from "../../domain/indicators/catalogue";
import { type IndicatorRequest, type Resolution, isIntraday, paramsFromQuery } from "../../domain/indicators/request";
import type { Deps } from "../../deps";
import { BadRequestError } from "../../domain/errors";
import { loadSeries } from "./load-series";
import { type IndicatorResult, computeOutputs, toIndicatorResult } from "./result";

export interface IndicatorQuery {
  ticker: string;
  indicator: string;
  period?: number;
  fast?: number;
  slow?: number;
  signal?: number;
  std?: number;
  resolution: Resolution;
  fromDate?: string;
  toDate?: string;
  limit?: number;
}

const KNOWN = INDICATORS.map((i) => i.name).join(", ");

/** 400 for a name the catalogue does not have, or VWAP asked on daily, weekly or monthly bars. */
export function checkIndicatorFits(req: Pick<IndicatorRequest, "spec">, resolution: Resolution): string | null {
  if (req.spec.intradayOnly && !isIntraday(resolution)) return `${req.spec.name} is computed on intraday bars only (resolution=1min), not on ${resolution} bars`;
  return null;
}

/** The cache lifetime of indicator answers at a resolution (1 hour daily, 60 seconds intraday). */
export function technicalTtl(ctx: Deps, resolution: Resolution): number {
  const ttl = cacheTtls(ctx.config);
  return isIntraday(resolution) ? ttl.technical_intraday : ttl.technical_daily;
}

/** GET /technical/{ticker}: one indicator over the stored bars, cached when TECHNICAL_CACHE_ENABLED. */
export async function getIndicator({ ctx, input }: { ctx: Deps; input: IndicatorQuery }): Promise<IndicatorResult> {
  const spec = indicatorSpec(input.indicator);
  if (!spec) throw new BadRequestError(`Unknown indicator '${input.indicator}'; known: ${KNOWN}`);
  const misfit = checkIndicatorFits({ spec }, input.resolution);
  if (misfit) throw new BadRequestError(misfit);
  const params = paramsFromQuery(spec, input);
  if (!params.ok) throw new BadRequestError(params.error);
  const req: IndicatorRequest = { key: spec.name, spec, params: params.value };
  const limit = input.limit ?? ctx.config.TECHNICAL_DEFAULT_LIMIT;

  const useCache = ctx.config.TECHNICAL_CACHE_ENABLED;
  const key = cacheKeys.technical(input.ticker, [spec.name, JSON.stringify(params.value), input.resolution, input.fromDate ?? "", input.toDate ?? "", limit].join(":"));
  if (useCache) {
    const hit = await ctx.cache.get<IndicatorResult>(key);
    if (hit) return { ...hit, cached: true };
  }
  const { series } = await loadSeries({ ctx, input: { ticker: input.ticker, resolution: input.resolution, fromDate: input.fromDate, toDate: input.toDate, limit } });
  const result = toIndicatorResult(input.ticker, input.resolution, req, series, computeOutputs(req, series), ctx.clock.now());
  if (useCache) await ctx.cache.set(key, result, technicalTtl(ctx, input.resolution));
  return result;
}
