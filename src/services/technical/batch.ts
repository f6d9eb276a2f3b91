import { BadRequestError } from "../../domain/errors";
import type { Context } from "../../platform/context";
import { getMulti, type MultiQuery, type MultiResult } from "./get-multi";

export interface BatchQuery extends Omit<MultiQuery, "ticker"> {
  tickers: string[];
}

/** POST /technical/batch: the multi answer of each ticker (one price read each), within the configured limits. */
export async function runBatch({
  ctx,
  input,
}: {
  ctx: Context;
  input: BatchQuery;
}): Promise<Record<string, MultiResult>> {
  const maxTickers = ctx.config.TECHNICAL_MAX_BATCH_TICKERS;
  if (input.tickers.length > maxTickers)
    throw new BadRequestError(
      `At most ${maxTickers} tickers per batch (TECHNICAL_MAX_BATCH_TICKERS); ${input.tickers.length} given`,
    );
  // The spec caps the batch route's indicators (each ticker's answer is also bounded by cost).
  const maxIndicators = ctx.config.TECHNICAL_MAX_BATCH_INDICATORS;
  if (input.indicators.length > maxIndicators)
    throw new BadRequestError(
      `At most ${maxIndicators} indicators per batch (TECHNICAL_MAX_BATCH_INDICATORS); ${input.indicators.length} given`,
    );
  const tickers = [...new Set(input.tickers)];
  const out: Record<string, MultiResult> = {};
  for (const ticker of tickers) out[ticker] = await getMulti({ ctx, input: { ...input, ticker } });
  return out;
}
