import type { Deps } from "../../deps";
import { BadRequestError } from "../../domain/errors";
import { getMulti, type MultiQuery, type MultiResult } from "./get-multi";

export interface BatchQuery extends Omit<MultiQuery, "ticker"> {
  tickers: string[];
}

/** POST /technical/batch: the multi answer of each ticker (one price read each), within the configured limits. */
export async function runBatch({ ctx, input }: { ctx: Deps; input: BatchQuery }): Promise<Record<string, MultiResult>> {
  const maxTickers = ctx.config.TECHNICAL_MAX_BATCH_TICKERS;
  if (input.tickers.length > maxTickers)
    throw new BadRequestError(
      `At most ${maxTickers} tickers per batch (TECHNICAL_MAX_BATCH_TICKERS); ${input.tickers.length} given`,
    );
  const tickers = [...new Set(input.tickers)];
  const out: Record<string, MultiResult> = {};
  for (const ticker of tickers) out[ticker] = await getMulti({ ctx, input: { ...input, ticker } });
  return out;
}
