import { BadRequestError } from "../../domain/errors";
import { INDICATORS, indicatorSpec } from "../../domain/indicators/catalogue";
import { type IndicatorRequest, isIntraday, paramsFromQuery, type Resolution } from "../../domain/indicators/request";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { readThrough } from "../shared/read-through";
import { loadSeries } from "./load-series";
import { computeOutputs, type IndicatorResult, toIndicatorResult } from "./result";

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
  if (req.spec.intradayOnly && !isIntraday(resolution))
    return `${req.spec.name} is computed on intraday bars only (resolution=1min), not on ${resolution} bars`;
  return null;
}

/** The cache lifetime of indicator answers at a resolution (1 hour daily, 60 seconds intraday). */
export function technicalTtl(ctx: Context, resolution: Resolution): number {
  const ttl = cacheTtls(ctx.config);
  return isIntraday(resolution) ? ttl.technical_intraday : ttl.technical_daily;
}

/**
 * Every indicator answer (single, multi, chart, and batch through multi) is cached here: one key
 * shape per ticker (dropped by an ingestion of it), the lifetime of its resolution, and the
 * TECHNICAL_CACHE_ENABLED switch. `variant` names everything that shapes the answer.
 */
export async function rememberTechnical<T>(
  ctx: Context,
  ticker: string,
  resolution: Resolution,
  variant: readonly unknown[],
  load: () => Promise<T>,
  shouldCache?: (value: T) => boolean,
) {
  const key = cacheKeys.technical(
    ticker,
    [...variant, resolution].map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(":"),
  );
  return readThrough(ctx, {
    key,
    ttlSeconds: technicalTtl(ctx, resolution),
    build: load,
    enabled: ctx.config.TECHNICAL_CACHE_ENABLED,
    shouldCache,
  });
}

/** GET /technical/{ticker}: one indicator over the stored bars, cached when TECHNICAL_CACHE_ENABLED. */
export async function getIndicator({ ctx, input }: { ctx: Context; input: IndicatorQuery }): Promise<IndicatorResult> {
  const spec = indicatorSpec(input.indicator);
  if (!spec) throw new BadRequestError(`Unknown indicator '${input.indicator}'; known: ${KNOWN}`);
  const misfit = checkIndicatorFits({ spec }, input.resolution);
  if (misfit) throw new BadRequestError(misfit);
  const params = paramsFromQuery(spec, input);
  if (!params.ok) throw new BadRequestError(params.error);
  const req: IndicatorRequest = { key: spec.name, spec, params: params.value };
  const limit = input.limit ?? ctx.config.TECHNICAL_DEFAULT_LIMIT;

  const load = async () => {
    const { series } = await loadSeries({
      ctx,
      input: {
        ticker: input.ticker,
        resolution: input.resolution,
        fromDate: input.fromDate,
        toDate: input.toDate,
        limit,
      },
    });
    return toIndicatorResult(input.ticker, input.resolution, req, series, computeOutputs(req, series), ctx.clock.now());
  };
  const variant = [spec.name, params.value, input.fromDate ?? "", input.toDate ?? "", limit];
  const { value, hit } = await rememberTechnical(ctx, input.ticker, input.resolution, variant, load);
  return hit ? { ...value, cached: true } : value;
}
