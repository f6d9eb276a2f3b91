import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";

export interface ClearResult {
  scope: string;
  deleted: number;
  note?: string;
}

/**
 * POST /cache/clear and /cache/clear/{ticker}: deletes cached EOD answers only (`eod:*` or
 * `eod:{TICKER}:*`); other categories expire on their own. A `period` is accepted for
 * compatibility and, as the spec says, deletes nothing.
 */
export async function clearEodCache({
  ctx,
  input,
}: {
  ctx: Context;
  input: { ticker?: string; period?: string };
}): Promise<ClearResult> {
  if (input.ticker && input.period) {
    return {
      scope: cacheKeys.eod(input.ticker, `${input.period}*`),
      deleted: 0,
      note: "clearing by period is not supported yet; nothing was deleted",
    };
  }
  const scope = input.ticker ? cacheKeys.eodOfTicker(input.ticker) : cacheKeys.eodAll();
  return { scope, deleted: await ctx.cache.deletePattern(scope) };
}
